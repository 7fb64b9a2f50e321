package org.coalition.condor;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.coalition.handler.HandlerException;
import org.coalition.handler.HandlerException.Category;

/**
 * The pool's load read from HTCondor's ads: the idle jobs' core-seconds ({@code condor_q -json})
 * and the cores of the slots, total and busy ({@code condor_status -json}). A number HTCondor
 * never prints (negative, or past any machine) is a PROTOCOL error, not a load.
 */
final class CondorLoad {
  /** Activities in which a slot's cores run a job. */
  static final Set<String> BUSY = Set.of("Busy", "Retiring", "Suspended");
  private static final long MAX_CPUS = 1 << 20;
  private static final long MAX_SECONDS = 366L * 24 * 3600 * 100;

  /** Cores of the pool's slots that run jobs, and of those busy. */
  record Cores(int total, int claimed) {}

  private CondorLoad() {}

  /** The idle jobs' cores times their time limits ({@code defaultLimit} for a job without one). */
  static double pendingCoreSeconds(List<JsonNode> pending, Duration defaultLimit) {
    double coreSeconds = 0;
    for (JsonNode job : pending) {
      JsonNode d = job.path("AllowedJobDuration");
      double limit = d.canConvertToLong() ? bounded(job, "AllowedJobDuration", d.asLong(), MAX_SECONDS) : defaultLimit.toSeconds();
      JsonNode c = job.path("RequestCpus");
      long cpus = c.canConvertToLong() ? bounded(job, "RequestCpus", c.asLong(), MAX_CPUS) : 1;
      coreSeconds += Math.max(1, cpus) * limit;
    }
    return coreSeconds;
  }

  /** The slots' cores: partitionable slots count whole unless owned or drained, dynamic ones count as busy when they run a job. */
  static Cores cores(List<JsonNode> slots) {
    long total = 0;
    long claimed = 0;
    for (JsonNode slot : slots) {
      String type = slot.path("SlotType").asText("Static");
      String state = slot.path("State").asText("");
      boolean busy = BUSY.contains(slot.path("Activity").asText(""));
      boolean usable = !state.equals("Owner") && !state.equals("Drained");
      if (type.equals("Partitionable")) {
        total += usable ? cpus(slot, "TotalSlotCpus") : 0;
      } else if (type.equals("Dynamic")) {
        claimed += busy ? cpus(slot, "Cpus") : 0; // a claimed but idle slot runs nothing: the schedd may reuse it or let it go
      } else if (usable) {
        total += cpus(slot, "Cpus");
        claimed += busy ? cpus(slot, "Cpus") : 0;
      }
    }
    int t = (int) Math.min(Integer.MAX_VALUE, total);
    return new Cores(t, (int) Math.min(claimed, t));
  }

  /**
   * The most GPUs one usable slot has ({@code TotalSlotGPUs} of a partitionable slot, {@code GPUs}
   * of a static one; none where the pool declares none): the most a pilot can ask for.
   */
  static long gpus(List<JsonNode> slots) {
    long most = 0;
    for (JsonNode slot : slots) {
      String type = slot.path("SlotType").asText("Static");
      String state = slot.path("State").asText("");
      if (!type.equals("Dynamic") && !state.equals("Owner") && !state.equals("Drained")) {
        most = Math.max(most, cpus(slot, type.equals("Partitionable") ? "TotalSlotGPUs" : "GPUs"));
      }
    }
    return most;
  }

  private static long cpus(JsonNode slot, String attribute) {
    JsonNode n = slot.path(attribute);
    return n.isMissingNode() || n.isNull() ? 0 : n.canConvertToLong() ? bounded(slot, attribute, n.asLong(), MAX_CPUS) : protocol(slot, attribute);
  }

  private static long bounded(JsonNode ad, String attribute, long value, long max) {
    if (value < 0 || value > max) {
      throw new HandlerException(Category.PROTOCOL, "an ad's " + attribute + " is " + value + ", outside [0, " + max + "]: " + abbreviate(ad));
    }
    return value;
  }

  private static long protocol(JsonNode ad, String attribute) {
    throw new HandlerException(Category.PROTOCOL, "an ad's " + attribute + " is not a whole number: " + abbreviate(ad));
  }

  private static String abbreviate(JsonNode ad) {
    String s = ad.toString();
    return s.length() <= 200 ? s : s.substring(0, 200) + "...";
  }
}
