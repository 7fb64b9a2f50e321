package org.coalition.simulator.swf;

/** Jobs for the models' tests: only the fields the models read are set, the rest unknown (-1). */
public final class SwfJobs {
  private SwfJobs() {}

  /** A completed job that ran {@code runTime} seconds on {@code processors} processors. */
  public static SwfJob ran(long number, double submit, double runTime, int processors, int user) {
    return new SwfJob(number, submit, 0, runTime, processors, -1, -1, processors, -1, -1, 1, user, -1, -1, -1, -1, -1, -1);
  }
}
