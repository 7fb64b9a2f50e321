package org.coalition.policy.shapley;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Scores over many cases (CloudShare paper, Section 5.1): in each case an algorithm gets a point
 * for every other algorithm it is strictly fairer than (lower unfairness). Equal unfairness gives
 * no point to either.
 */
public final class PairwiseScores {
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
        if (a.getValue() < b.getValue()) {
          scores.merge(a.getKey(), 1, Integer::sum);
        }
      }
    }
    cases++;
  }

  public Map<String, Integer> scores() {
    return Collections.unmodifiableMap(scores);
  }

  public int cases() {
    return cases;
  }
}
