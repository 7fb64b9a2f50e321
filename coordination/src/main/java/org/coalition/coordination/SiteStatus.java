package org.coalition.coordination;

/**
 * A live site's changing state, kept in its ephemeral membership node: queue length (work
 * waiting locally, in core-seconds and in jobs), reservation ratio (reserved cores / total) and
 * declared participation level l (in core-seconds of foreign work it accepts or sends per period).
 */
public record SiteStatus(String site, int cores, double queueCoreSeconds, int queuedJobs, double reservationRatio, double participation) {
  /** The largest participation level a site may declare (the site file's bound too). */
  public static final double MAX_PARTICIPATION = 1e15;
  /** Bounds on a peer's claims about itself: more cores than any machine room, more work than a century of them. */
  public static final int MAX_CORES = 1 << 24;
  public static final double MAX_QUEUE_CORE_SECONDS = 1e18;

  public SiteStatus {
    JobSpec.requireId("site", site);
    if (cores < 0 || cores > MAX_CORES || queuedJobs < 0) {
      throw new IllegalArgumentException("site " + site + ": cores must be in [0, " + MAX_CORES + "] and queued jobs >= 0");
    }
    if (!(queueCoreSeconds >= 0 && queueCoreSeconds <= MAX_QUEUE_CORE_SECONDS)) {
      throw new IllegalArgumentException("site " + site + ": queue length must be in [0, " + MAX_QUEUE_CORE_SECONDS + "], was "
          + queueCoreSeconds);
    }
    if (!(reservationRatio >= 0 && reservationRatio <= 1)) {
      throw new IllegalArgumentException("site " + site + ": reservation ratio must be in [0, 1], was " + reservationRatio);
    }
    if (!(participation >= 0 && participation <= MAX_PARTICIPATION)) {
      throw new IllegalArgumentException("site " + site + ": participation level must be in [0, " + MAX_PARTICIPATION + "], was "
          + participation);
    }
  }
}
