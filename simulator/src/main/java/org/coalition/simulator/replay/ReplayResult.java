package org.coalition.simulator.replay;

import java.util.List;

/**
 * What a replay gave.
 *
 * @param clipped jobs wider than the widest site, run at that width
 * @param events events the engine fired
 * @param seconds wall time of the simulation alone (reading the log not included)
 */
public record ReplayResult(
    String trace, String policy, List<SiteReport> sites, long jobs, long clipped, long events, double seconds) {
  public ReplayResult {
    sites = List.copyOf(sites);
  }

  /** Events per second of wall time. */
  public double eventsPerSecond() {
    return seconds > 0 ? events / seconds : 0;
  }

  /**
   * One site.
   *
   * @param meanWait mean wait (seconds) of its users' jobs
   * @param ranRemotely its users' jobs that ran at another site
   * @param ranForOthers other sites' jobs it ran
   * @param meanFlow mean flow time (seconds: wait and run) of its users' jobs
   * @param workElsewhere the share (0 to 1) of its users' work (core-seconds) that ran at other sites
   */
  public record SiteReport(int site, int cores, long jobs, double meanWait, double maxWait, long ranRemotely,
      long ranForOthers, double meanFlow, double workElsewhere) {}
}
