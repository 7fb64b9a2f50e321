package org.coalition.handler;

import java.util.Objects;
import java.util.OptionalInt;

/**
 * A pilot's state, its exit code once it ended, and the batch system's own words for it
 * (state name and reason, e.g. "PENDING (Resources)"), kept for the operator's log.
 */
public record PilotStatus(PilotHandle pilot, PilotState state, OptionalInt exitCode, String detail) {
  public PilotStatus {
    Objects.requireNonNull(pilot, "pilot");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(exitCode, "exitCode");
    Objects.requireNonNull(detail, "detail");
  }

  public static PilotStatus unknown(PilotHandle pilot, String why) {
    return new PilotStatus(pilot, PilotState.UNKNOWN, OptionalInt.empty(), why);
  }
}
