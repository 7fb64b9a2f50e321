package org.coalition.coordination.zookeeper;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.coalition.coordination.CoordinationException;
import org.coalition.coordination.CoordinationException.Kind;
import org.coalition.coordination.Credit;
import org.coalition.coordination.Inputs;
import org.coalition.coordination.JobOwner;
import org.coalition.coordination.JobSpec;
import org.coalition.coordination.LedgerRow;
import org.coalition.coordination.RunResult;
import org.coalition.job.JobLayout;
import org.coalition.policy.contracts.Commitment;
import org.coalition.policy.contracts.Commitment.Reveal;
import org.coalition.policy.contracts.DayAheadMarket.Outcome;
import org.coalition.policy.contracts.MarketCalendar;
import org.coalition.policy.contracts.SealedBid;

/**
 * The JSON records stored in ZooKeeper nodes, and their codec. Peers' writes are not trusted: a
 * node larger than {@link #MAX_NODE_BYTES}, not JSON, with unknown fields or failing a record's
 * validation is refused with the node's path and the reason.
 */
final class ZkRecords {
  /** Largest node this code writes or reads, well under ZooKeeper's 1 MiB jute.maxbuffer. */
  static final int MAX_NODE_BYTES = 64 * 1024;

  private static final ObjectMapper JSON = JsonMapper.builder()
      .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
      .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
      .addMixIn(RunResult.class, RunResultJson.class)
      .addMixIn(JobSpec.class, JobSpecJson.class)
      .addMixIn(LedgerRow.class, LedgerRowJson.class)
      .build();

  /**
   * How a {@link RunResult} is read: {@code signal}, {@code timedOut} and {@code outOfMemory} came
   * later (issue #24), and a result written by a daemon from before says nothing of them; absent,
   * the run exited by itself. {@code outputBytes} came with issue #49; absent, no size is declared.
   * Every other field stays required, as the strict mapper wants.
   */
  private abstract static class RunResultJson {
    @JsonCreator
    static RunResult read(@JsonProperty("start") double start, @JsonProperty("end") double end, @JsonProperty("exitCode") int exitCode,
        @JsonProperty("signal") Integer signal, @JsonProperty("timedOut") Boolean timedOut, @JsonProperty("output") String output,
        @JsonProperty("outputSha256") String outputSha256, @JsonProperty("outOfMemory") Boolean outOfMemory,
        @JsonProperty("outputBytes") Long outputBytes) {
      throw new AssertionError("a mix-in: Jackson calls RunResult.read");
    }

    /** Written only when declared, as the checksum beside it. */
    @JsonInclude(JsonInclude.Include.NON_DEFAULT)
    abstract long outputBytes();

    /** Written only when true: a daemon from before memory kills were told reads every other result as it did. */
    @JsonInclude(JsonInclude.Include.NON_DEFAULT)
    abstract boolean outOfMemory();

    /** Written only when there is one: a daemon from before checksums reads the others as it always did. */
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    abstract String outputSha256();
  }

  /**
   * A job's {@link Inputs} and environment are written only when it has some, and its layout only
   * when it is not one node and one task without GRES, and its owner only when its home names one
   * (a daemon from before staging, arrays, layouts or identity domains, which refuses unknown
   * fields, reads every other job as it did); each is read as none when absent.
   */
  private abstract static class JobSpecJson {
    @JsonInclude(value = JsonInclude.Include.CUSTOM, valueFilter = AsBefore.class)
    abstract Inputs inputs();

    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    abstract Map<String, String> environment();

    @JsonInclude(value = JsonInclude.Include.CUSTOM, valueFilter = AsBefore.class)
    abstract JobLayout layout();

    @JsonInclude(value = JsonInclude.Include.CUSTOM, valueFilter = AsBefore.class)
    abstract JobOwner owner();
  }

  /**
   * A ledger row's contract payments are written only when it has made some (a daemon from before
   * contracts reads every other row as it did); read as none when absent.
   */
  private abstract static class LedgerRowJson {
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    abstract Map<String, Credit> paid();
  }

  /**
   * Jackson's filter for {@link JobSpecJson}: true (left out) for what every job had before the
   * field came, {@link Inputs#NONE}, {@link JobLayout#ONE} or {@link JobOwner#NONE}.
   */
  static final class AsBefore {
    @Override
    public boolean equals(Object other) {
      return other == null || Inputs.NONE.equals(other) || JobLayout.ONE.equals(other) || JobOwner.NONE.equals(other);
    }

    @Override
    public int hashCode() {
      return 0;
    }
  }

  private ZkRecords() {}

  /** The federation root's data: its epoch and each member site's identity (FEDERATION/SITE, as its certificate names it). */
  record FederationRecord(long epochMillis, Map<String, String> members) {}

  /** Who claimed a job, from which ZooKeeper session; whether the run started or was given up. */
  record ClaimRecord(String executor, long session, double startTime, boolean released) {
    /** A member's name, so that no path made of it leaves the site's own branch ({@code ""}, {@code "."}). */
    ClaimRecord {
      JobSpec.requireId("executor", executor);
    }

    static ClaimRecord fresh(String executor, long session) {
      return new ClaimRecord(executor, session, -1, false);
    }
  }

  /** An accepted result: the executor, the claim token it held, and the run. */
  record ResultRecord(String executor, long token, RunResult run) {
    ResultRecord {
      JobSpec.requireId("executor", executor);
      if (run == null) {
        throw new IllegalArgumentException("a result without its run");
      }
    }
  }

  /** A sealed bid's commitment for one slot and block type (docs/decisions/0020-capacity-contracts.md). */
  record CommitRecord(String site, long slotStart, String blockType, String commitment) {
    CommitRecord {
      JobSpec.requireId("site", site);
      if (blockType == null || !Commitment.isHex64(commitment)) {
        throw new IllegalArgumentException("a commitment needs its block type and 64 lower-case hex digits");
      }
    }
  }

  /** A bid revealed after the gate, with the nonce its commitment sealed it with. */
  record RevealRecord(SealedBid bid, String nonce) {
    RevealRecord {
      new Reveal(bid, nonce); // the same checks a reveal has: a bid, and a nonce of 64 hex digits
    }
  }

  /** A day's clearing as a member published it: every auction's outcome; members check it against their own. */
  record ClearingRecord(String leader, String day, List<Outcome> outcomes) {
    ClearingRecord {
      JobSpec.requireId("leader", leader);
      outcomes = List.copyOf(outcomes);
    }
  }

  /** The federation's market calendar, on the operator's {@code market} node: seconds, so every member reads the same instants. */
  record CalendarRecord(long gateBeforeDaySeconds, long revealWindowSeconds, long slotSeconds) {
    static CalendarRecord of(MarketCalendar c) {
      return new CalendarRecord(c.beforeDay().toSeconds(), c.revealWindow().toSeconds(), c.slot().toSeconds());
    }

    MarketCalendar calendar() {
      return new MarketCalendar(Duration.ofSeconds(gateBeforeDaySeconds), Duration.ofSeconds(revealWindowSeconds), Duration.ofSeconds(slotSeconds));
    }
  }

  static byte[] write(Object value) {
    try {
      byte[] bytes = JSON.writeValueAsBytes(value);
      if (bytes.length > MAX_NODE_BYTES) {
        throw new CoordinationException(Kind.INVALID, value.getClass().getSimpleName() + " of " + bytes.length
            + " bytes is over the node limit of " + MAX_NODE_BYTES);
      }
      return bytes;
    } catch (JsonProcessingException e) {
      throw new CoordinationException(Kind.INTERNAL, "cannot encode " + value.getClass().getSimpleName() + ": " + e.getMessage(), e);
    }
  }

  static <T> T read(String path, byte[] data, Class<T> type) {
    if (data == null || data.length == 0) {
      throw new CoordinationException(Kind.INVALID, path + ": empty node, expected " + type.getSimpleName());
    }
    if (data.length > MAX_NODE_BYTES) {
      throw new CoordinationException(Kind.INVALID, path + ": node of " + data.length + " bytes is over the limit of " + MAX_NODE_BYTES);
    }
    try {
      T value = JSON.readValue(data, type);
      if (value == null) {
        throw new CoordinationException(Kind.INVALID, path + ": null, expected " + type.getSimpleName());
      }
      return value;
    } catch (IOException e) {
      Throwable cause = e.getCause() instanceof IllegalArgumentException iae ? iae : e;
      throw new CoordinationException(Kind.INVALID, path + ": not a valid " + type.getSimpleName() + ": " + firstLine(cause.getMessage()), e);
    }
  }

  private static String firstLine(String message) {
    if (message == null) {
      return "(no detail)";
    }
    int nl = message.indexOf('\n');
    return nl < 0 ? message : message.substring(0, nl);
  }
}
