package org.coalition.coordination.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.coalition.coordination.Allowances;
import org.coalition.coordination.CoordinationException;
import org.coalition.coordination.JobSpec;
import org.coalition.coordination.LedgerRow;
import org.coalition.coordination.RunResult;
import org.coalition.coordination.SiteInfo;
import org.coalition.coordination.SiteStatus;
import org.coalition.coordination.UtilitySums;
import org.coalition.coordination.zookeeper.ZkRecords.ClaimRecord;
import org.coalition.coordination.zookeeper.ZkRecords.FederationRecord;
import org.coalition.coordination.zookeeper.ZkRecords.ResultRecord;
import org.coalition.testbed.fuzz.Mutations;

/**
 * Fuzzing every record a peer can write into ZooKeeper (docs/security.md): each record as this
 * code writes it, edited at random, read back as its type, is either a record that passed its own
 * checks or refused as INVALID naming the node; nothing else escapes, so a peer's garbage can
 * only ever be skipped or rejected, never stop a round.
 */
class ZkRecordsFuzzTest {
  private static final JobSpec JOB = JobSpec.builder("4127", "north").cores(4).memoryMb(2048).walltimeSeconds(3600).release(12.5)
      .payload("#!/bin/sh\necho hi\n").build();
  private static final RunResult RUN = RunResult.builder(20, 80).exitCode(3).output("data:application/vnd.coalition.output;base64,AAAA").build();
  private static final Map<Class<?>, Object> RECORDS = Map.of(
      JobSpec.class, JOB,
      ClaimRecord.class, ClaimRecord.fresh("south", 0x1234L),
      ResultRecord.class, new ResultRecord("south", 77, RUN),
      SiteStatus.class, new SiteStatus("south", 64, 3600, 2, 0.5, 7200),
      SiteInfo.class, new SiteInfo("south", "https://south:8443/", 64),
      LedgerRow.class, LedgerRow.empty("north").accepted("south", UtilitySums.of(12.5, RUN, 4)).accepted("west", UtilitySums.of(1, RUN, 1)),
      Allowances.class, new Allowances("north", 3, 100, Map.of("south", new Allowances.Allowance(10, 20))),
      FederationRecord.class, new FederationRecord(1_700_000_000_000L, Map.of("north", "north:abc=", "south", "south:def=")));
  private static final List<Class<?>> TYPES = List.copyOf(RECORDS.keySet());

  /** One record type and an edited encoding of a valid record of it. */
  record Case(Class<?> type, String json) {}

  @Property(tries = 20_000)
  void anEditedRecordIsReadAsAValidRecordOrRefusedAsInvalid(@ForAll("edited") Case c) {
    try {
      Object value = ZkRecords.read("/coalition/fuzz/node", c.json().getBytes(StandardCharsets.UTF_8), c.type());
      assertTrue(c.type().isInstance(value));
    } catch (CoordinationException e) {
      assertEquals(CoordinationException.Kind.INVALID, e.kind(), e.getMessage());
      assertTrue(e.getMessage().startsWith("/coalition/fuzz/node: "), "a refusal that does not name the node: " + e.getMessage());
    }
  }

  @Property(tries = 5000)
  void bytesThatAreNoRecordAreRefusedAsInvalid(@ForAll("bytes") byte[] data, @ForAll("types") Class<?> type) {
    try {
      ZkRecords.read("/coalition/fuzz/node", data, type);
    } catch (CoordinationException e) {
      assertEquals(CoordinationException.Kind.INVALID, e.kind(), e.getMessage());
    }
  }

  @Provide
  Arbitrary<Case> edited() {
    return Arbitraries.of(TYPES).flatMap(type -> Mutations.of(3, new String(ZkRecords.write(RECORDS.get(type)), StandardCharsets.UTF_8))
        .map(json -> new Case(type, json)));
  }

  @Provide
  Arbitrary<byte[]> bytes() {
    return Arbitraries.bytes().array(byte[].class).ofMaxSize(300);
  }

  @Provide
  Arbitrary<Class<?>> types() {
    return Arbitraries.of(TYPES);
  }
}
