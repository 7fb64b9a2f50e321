package org.coalition.handler;

import java.util.Objects;

/** A pilot job as its batch system knows it: the handler's kind and the system's own job id. */
public record PilotHandle(String system, String nativeId) {
  public PilotHandle {
    Objects.requireNonNull(system, "system");
    if (nativeId == null || nativeId.isBlank()) {
      throw new IllegalArgumentException("a pilot needs its batch system's job id");
    }
  }

  @Override
  public String toString() {
    return system + ":" + nativeId;
  }
}
