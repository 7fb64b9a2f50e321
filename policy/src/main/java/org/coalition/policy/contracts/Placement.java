package org.coalition.policy.contracts;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where a slot's demand goes (contracts paper, Section III-C). ConBLF: local capacity first, then
 * contracts cheapest first. ConBCA: contracts cheaper than local capacity first, then local, then
 * dearer contracts, each group cheapest first. Demand beyond all capacity is left unplaced.
 */
public enum Placement {
  CON_BLF,
  CON_BCA;

  /** Cores placed per capacity, in the order used, and the demand left over. */
  public record Plan(Map<String, Double> placed, double unplaced, double cost) {}

  public Plan place(double demand, List<Capacity> capacities) {
    if (!(demand >= 0)) {
      throw new IllegalArgumentException("demand must be >= 0, was " + demand);
    }
    double localCost = capacities.stream().filter(Capacity::local).mapToDouble(Capacity::unitCost).min()
        .orElse(Double.POSITIVE_INFINITY);
    List<Capacity> order = new ArrayList<>(capacities);
    Comparator<Capacity> cheapest = Comparator.comparingDouble(Capacity::unitCost).thenComparing(Capacity::name);
    Comparator<Capacity> rank = switch (this) {
      case CON_BLF -> Comparator.comparingInt((Capacity c) -> c.local() ? 0 : 1);
      case CON_BCA -> Comparator.comparingInt((Capacity c) -> c.local() ? 1 : c.unitCost() < localCost ? 0 : 2);
    };
    order.sort(rank.thenComparing(cheapest));
    Map<String, Double> placed = new LinkedHashMap<>();
    double left = demand;
    double cost = 0;
    for (Capacity c : order) {
      if (left <= 0) {
        break;
      }
      double take = Math.min(left, c.cores());
      if (take > 0) {
        placed.put(c.name(), take);
        cost += take * c.unitCost();
        left -= take;
      }
    }
    return new Plan(placed, left, cost);
  }
}
