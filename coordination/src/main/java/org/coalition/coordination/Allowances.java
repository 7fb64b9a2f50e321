package org.coalition.coordination;

import java.util.Map;

/**
 * What the leader's last BILB period decided: per site, how much foreign work (core-seconds) it
 * may send and how much it should take until the next period. {@code period} counts periods
 * since the leader that published it was elected; {@code time} is when (federation seconds).
 */
public record Allowances(String leader, long period, double time, Map<String, Allowance> sites) {
  public static final Allowances NONE = new Allowances("", 0, 0, Map.of());

  public Allowances {
    sites = Map.copyOf(sites);
  }

  /** Send (Psi) and receive (Phi) bounds for one site, core-seconds. */
  public record Allowance(double send, double receive) {}

  public Allowance of(String site) {
    return sites.getOrDefault(site, new Allowance(0, 0));
  }
}
