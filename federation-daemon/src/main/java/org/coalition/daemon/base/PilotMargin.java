package org.coalition.daemon.base;

/**
 * What a pilot asks of its batch system beyond its job's time limit: its start-up and its output's
 * trip home. The executor side asks it of every pilot; a buyer counts it too when it sends a job
 * into a block it bought, so that the job and its pilot end in the slot.
 */
public final class PilotMargin {
  /** A pilot asks for its job's time limit and this much more. */
  public static final long SECONDS = 60;

  private PilotMargin() {}
}
