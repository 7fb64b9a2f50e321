package org.coalition.policy.balancing;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one balancing period decided: the transfers, and per site the work it sends
 * ({@code sent}, Psi), receives ({@code received}, Phi) and its queue afterwards.
 */
public record BalancingPlan(List<Transfer> transfers, Map<String, Outcome> outcomes, long receiverUpdates) {
  /** Per site: Psi, Phi and the queue length after the plan, L + Phi - Psi. */
  public record Outcome(double load, double participation, double sent, double received) {
    public double finalLoad() {
      return load + received - sent;
    }
  }

  public BalancingPlan {
    transfers = List.copyOf(transfers);
    outcomes = Collections.unmodifiableMap(new LinkedHashMap<>(outcomes));
  }

  /**
   * Builds a plan from per-site arrays indexed like {@code sites}.
   */
  static BalancingPlan of(List<SiteLoad> sites, double[] sent, double[] received, List<Transfer> transfers, long updates) {
    Map<String, Outcome> outcomes = new LinkedHashMap<>();
    for (int i = 0; i < sites.size(); i++) {
      SiteLoad s = sites.get(i);
      outcomes.put(s.site(), new Outcome(s.load(), s.participation(), sent[i], received[i]));
    }
    return new BalancingPlan(transfers, outcomes, updates);
  }

  public Outcome outcome(String site) {
    Outcome o = outcomes.get(site);
    if (o == null) {
      throw new IllegalArgumentException("no site " + site + " in this plan (sites: " + outcomes.keySet() + ")");
    }
    return o;
  }

  public double totalMoved() {
    return transfers.stream().mapToDouble(Transfer::amount).sum();
  }
}
