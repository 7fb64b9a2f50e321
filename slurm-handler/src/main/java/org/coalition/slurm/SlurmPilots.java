package org.coalition.slurm;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.coalition.handler.PilotHandle;
import org.coalition.handler.PilotSpec;
import org.coalition.handler.PilotState;
import org.coalition.handler.PilotStatus;

/**
 * A pilot as a Slurm job, whatever the REST version: the batch script that runs it, its
 * environment, and how Slurm's job states read as pilot states.
 */
final class SlurmPilots {
  /** Exit code of a pilot that Slurm requeued: it ends at once, the federation requeues the work. */
  public static final int REQUEUED_EXIT = 75;

  private SlurmPilots() {}

  /** A pilot's state from its Slurm job's state and reason. */
  static PilotStatus status(PilotHandle pilot, SlurmJob j) {
    PilotState state = switch (j.state()) {
      case "PENDING", "REQUEUED", "REQUEUE_HOLD", "REQUEUE_FED" -> j.reason().startsWith("JobHeld") ? PilotState.HELD : PilotState.PENDING;
      case "RUNNING", "CONFIGURING", "COMPLETING", "SUSPENDED", "STAGE_OUT", "SIGNALING", "RESIZING" -> PilotState.RUNNING;
      case "COMPLETED" -> PilotState.COMPLETED;
      case "FAILED", "TIMEOUT", "NODE_FAIL", "OUT_OF_MEMORY", "BOOT_FAIL", "DEADLINE" -> PilotState.FAILED;
      case "CANCELLED", "PREEMPTED", "REVOKED" -> PilotState.CANCELLED;
      default -> PilotState.UNKNOWN;
    };
    return new PilotStatus(pilot, state, j.exitCode(), j.state() + (j.reason().isEmpty() || j.reason().equals("None") ? "" : " (" + j.reason() + ")"));
  }

  /** The pilot's environment: what the spec sets, with a PATH when it sets none (Slurm requires an environment). */
  static Map<String, String> environment(PilotSpec spec) {
    Map<String, String> env = new TreeMap<>(spec.environment());
    env.putIfAbsent("PATH", "/usr/local/bin:/usr/bin:/bin");
    env.put("COALITION_PILOT", spec.name());
    return env;
  }

  /**
   * The GRES a pilot asks for on each node, as its job asked for them: {@code gpu:1,gpu:a100:2},
   * each item after {@code prefix} (empty for v0.0.38's {@code gres}, {@code gres/} for later versions'
   * {@code tres_per_node}); null when it asks for none.
   */
  static String gresPerNode(PilotSpec spec, String prefix) {
    if (spec.layout().gres().isEmpty()) {
      return null;
    }
    StringBuilder s = new StringBuilder();
    spec.layout().gres().forEach((name, count) -> s.append(s.length() == 0 ? "" : ",").append(prefix).append(name).append(':').append(count));
    return s.toString();
  }

  /** Its tasks on each node when they divide evenly (as {@code --ntasks-per-node} would place them), else null: Slurm places them. */
  static Integer tasksPerNode(PilotSpec spec) {
    int nodes = spec.layout().nodes();
    return nodes > 1 && spec.layout().tasks() % nodes == 0 ? spec.layout().tasks() / nodes : null;
  }

  /** The same as {@code NAME=value} lines, as v0.0.40 and later take it. */
  static List<String> environmentLines(PilotSpec spec) {
    List<String> lines = new ArrayList<>();
    environment(spec).forEach((k, v) -> lines.add(k + "=" + v));
    return lines;
  }

  /**
   * A batch script that execs the pilot's command, every word single-quoted. A run after a Slurm
   * requeue ends at once with {@link #REQUEUED_EXIT}: REST v0.0.38 (22.05) ignores
   * {@code requeue: false}, and the payload must never run twice.
   */
  static String script(PilotSpec spec) {
    StringBuilder s = new StringBuilder("#!/bin/sh\n# Coalition pilot ").append(spec.name()).append('\n')
        .append("if [ \"${SLURM_RESTART_COUNT:-0}\" -gt 0 ]; then\n")
        .append("  echo 'coalition: this pilot was requeued by Slurm; the federation requeues its work instead' >&2\n")
        .append("  exit ").append(REQUEUED_EXIT).append("\nfi\nexec");
    for (String word : spec.command()) {
      s.append(" '").append(word.replace("'", "'\\''")).append('\'');
    }
    return s.append('\n').toString();
  }
}
