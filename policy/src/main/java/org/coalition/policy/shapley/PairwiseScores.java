package org.coalition.policy.shapley;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Scores over many cases (CloudShare paper, Section 5.1): in each case an algorithm gets a point
 * for every other algorithm it is strictly fairer than (lower unfairness). Equal unfairness gives
 * no point to either; unfairness values within a relative {@value #TOLERANCE} of each other are
 * equal, since summing the same waits in another order is not a difference in fairness.
 */
public final class PairwiseScores {
  /** Relative difference below which two unfairness values count as equal. */
  public static final double TOLERANCE = 1e-9;

  private final Map<String, Integer> scores = new LinkedHashMap<>();
  private int cases;

  /** Adds one case: each algorithm's unfairness in it. */
  public void add(Map<String, Double> unfairness) {
    unfairness.forEach((name, u) -> {
      if (!Double.isFinite(u)) {
        throw new IllegalArgumentException("algorithm " + name + " has no finite unfairness: " + u);
      }
      scores.putIfAbsent(name, 0);
    });
    for (Map.Entry<String, Double> a : unfairness.entrySet()) {
      for (Map.Entry<String, Double> b : unfairness.entrySet()) {
        if (fairer(a.getValue(), b.getValue())) {
          scores.merge(a.getKey(), 1, Integer::sum);
        }
      }
    }
    cases++;
  }

  /** Whether unfairness {@code a} is strictly below {@code b}, beyond rounding. */
  static boolean fairer(double a, double b) {
    return a < b - TOLERANCE * Math.max(1, Math.max(Math.abs(a), Math.abs(b)));
  }

  public Map<String, Integer> scores() {
    return Collections.unmodifiableMap(scores);
  }

  public int cases() {
    return cases;
  }
}
