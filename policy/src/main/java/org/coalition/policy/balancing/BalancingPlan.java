package org.coalition.policy.balancing;

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
    outcomes = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(outcomes));
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
