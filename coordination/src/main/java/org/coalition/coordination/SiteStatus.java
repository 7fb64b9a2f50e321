package org.coalition.coordination;

/**
 * A live site's changing state, kept in its ephemeral membership node: queue length (work
 * waiting locally, in core-seconds and in jobs), reservation ratio (reserved cores / total) and
 * declared participation level l (in core-seconds of foreign work it accepts or sends per period).
 */
public record SiteStatus(String site, int cores, double queueCoreSeconds, int queuedJobs, double reservationRatio, double participation) {
  public SiteStatus {
    JobSpec.requireId("site", site);
    if (cores < 0 || queuedJobs < 0) {
      throw new IllegalArgumentException("site " + site + ": cores and queued jobs must be >= 0");
    }
    if (!(queueCoreSeconds >= 0) || Double.isInfinite(queueCoreSeconds)) {
      throw new IllegalArgumentException("site " + site + ": queue length must be finite and >= 0, was " + queueCoreSeconds);
    }
    if (!(reservationRatio >= 0 && reservationRatio <= 1)) {
      throw new IllegalArgumentException("site " + site + ": reservation ratio must be in [0, 1], was " + reservationRatio);
    }
    if (!(participation >= 0) || Double.isInfinite(participation)) {
      throw new IllegalArgumentException("site " + site + ": participation level must be finite and >= 0, was " + participation);
    }
  }
}
