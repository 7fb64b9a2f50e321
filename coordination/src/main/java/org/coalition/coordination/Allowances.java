package org.coalition.coordination;

import java.util.Map;

/**
 * What the leader's last BILB period decided: per site, how much foreign work (core-seconds) it
 * may send and how much it should take until the next period. {@code period} counts periods
 * since the leader that published it was elected; {@code time} is when (federation seconds).
 */
public record Allowances(String leader, long period, double time, Map<String, Allowance> sites) {
  public static final Allowances NONE = new Allowances("", 0, 0, Map.of());

  /** Most sites one record may name. */
  public static final int MAX_SITES = 10_000;

  /** Checked on construction, so a record read from the store is well formed or refused with the reason. */
  public Allowances {
    if (!leader.isEmpty()) {
      JobSpec.requireId("leader", leader);
    }
    if (period < 0 || !(time >= 0 && time <= JobSpec.MAX_TIME)) {
      throw new IllegalArgumentException("allowances of " + leader + ": period must be >= 0 and time in [0, " + JobSpec.MAX_TIME + "]");
    }
    if (sites.size() > MAX_SITES) {
      throw new IllegalArgumentException("allowances of " + leader + ": " + sites.size() + " sites, more than " + MAX_SITES);
    }
    sites.keySet().forEach(site -> JobSpec.requireId("site", site));
    sites = Map.copyOf(sites);
  }

  /** Send (Psi) and receive (Phi) bounds for one site, core-seconds: finite and >= 0. */
  public record Allowance(double send, double receive) {
    public Allowance {
      if (!(send >= 0 && send < Double.POSITIVE_INFINITY) || !(receive >= 0 && receive < Double.POSITIVE_INFINITY)) {
        throw new IllegalArgumentException("allowance must be finite and >= 0, was send " + send + ", receive " + receive);
      }
    }
  }

  public Allowance of(String site) {
    return sites.getOrDefault(site, new Allowance(0, 0));
  }
}
