package org.coalition.api.model;

/**
 * One site of the federation as {@code GET /v1/sites} shows it; {@code state} is {@code live}
 * (its daemon holds its session), {@code gone} (it was live once) or {@code never joined} (a
 * member whose daemon has not yet come).
 */
public record SiteView(String site, String state, boolean live, String endpoint, int cores, double queueCoreSeconds, int queuedJobs,
    double reservationRatio, double participation, double sendAllowance, double receiveAllowance) {
  public static final String LIVE = "live";
  public static final String GONE = "gone";
  public static final String NEVER_JOINED = "never joined";
}
