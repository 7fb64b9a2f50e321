package org.coalition.condor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.coalition.handler.HandlerException;
import org.coalition.handler.PilotHandle;
import org.coalition.testbed.fuzz.Mutations;

/**
 * Fuzzing what Coalition reads of HTCondor's JSON (docs/security.md): {@code condor_q -json} and
 * {@code condor_status -json} as HTCondor 23 prints them, edited at random, give a load that makes
 * sense and pilot states, or a PROTOCOL error; nothing else escapes.
 */
class CondorJsonFuzzTest {
  private static final String QUEUE = """
      [
      {"ClusterId": 12, "ProcId": 0, "JobStatus": 1, "RequestCpus": 4, "AllowedJobDuration": 3600},
      {"ClusterId": 13, "ProcId": 2, "JobStatus": 5, "HoldReason": "via condor_hold", "RequestCpus": 1},
      {"ClusterId": 14, "ProcId": 0, "JobStatus": 4, "ExitCode": 3, "ExitBySignal": false},
      {"ClusterId": 15, "ProcId": 0, "JobStatus": 4, "ExitBySignal": true, "ExitSignal": 9}
      ]
      """;
  private static final String SLOTS = """
      [
      {"Name": "slot1@ex1", "SlotType": "Partitionable", "Cpus": 2, "TotalSlotCpus": 4, "State": "Unclaimed", "Activity": "Idle"},
      {"Name": "slot1_1@ex1", "SlotType": "Dynamic", "Cpus": 2, "State": "Claimed", "Activity": "Busy"},
      {"Name": "slot2@ex2", "SlotType": "Static", "Cpus": 1, "State": "Owner", "Activity": "Idle"}
      ]
      """;
  private static final PilotHandle PILOT = new PilotHandle("condor", "12.0");

  @Property(tries = 10_000)
  void anEditedQueueGivesALoadAndStatesOrAProtocolError(@ForAll("queues") String json) {
    try {
      List<JsonNode> ads = CondorTools.parse(json, "condor_q -json");
      double coreSeconds = CondorLoad.pendingCoreSeconds(ads, Duration.ofHours(1));
      assertTrue(Double.isFinite(coreSeconds) && coreSeconds >= 0, "core-seconds " + coreSeconds);
      for (JsonNode ad : ads) {
        CondorJobs.id(ad);
        CondorHandler.status(PILOT, ad);
      }
    } catch (HandlerException e) {
      assertEquals(HandlerException.Category.PROTOCOL, e.category(), e.getMessage());
    }
  }

  @Property(tries = 10_000)
  void editedSlotsGiveCoresOrAProtocolError(@ForAll("slots") String json) {
    try {
      CondorLoad.Cores c = CondorLoad.cores(CondorTools.parse(json, "condor_status -json"));
      assertTrue(c.claimed() >= 0 && c.claimed() <= c.total(), c.toString());
    } catch (HandlerException e) {
      assertEquals(HandlerException.Category.PROTOCOL, e.category(), e.getMessage());
    }
  }

  @Provide
  Arbitrary<String> queues() {
    return Mutations.of(3, QUEUE);
  }

  @Provide
  Arbitrary<String> slots() {
    return Mutations.of(3, SLOTS);
  }
}
