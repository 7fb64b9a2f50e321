package org.coalition.handler;

/** Where a pilot is in its life, in the words every batch system can be mapped to. */
public enum PilotState {
  PENDING,
  HELD,
  RUNNING,
  /** Ended with exit code 0. */
  COMPLETED,
  /** Ended otherwise: non-zero exit, node failure, time limit, out of memory. */
  FAILED,
  CANCELLED,
  /** The batch system no longer knows it (purged) or answered something unmapped. */
  UNKNOWN;

  public boolean finished() {
    return this == COMPLETED || this == FAILED || this == CANCELLED;
  }
}
