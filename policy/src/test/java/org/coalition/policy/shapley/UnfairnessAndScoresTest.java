package org.coalition.policy.shapley;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class UnfairnessAndScoresTest {
  @Test
  void distancesByHand() {
    double[] outcome = {3, 4, 10};
    double[] fair = {0, 0, 10};
    assertEquals(7, Unfairness.l1(outcome, fair), 1e-12);
    assertEquals(5, Unfairness.l2(outcome, fair), 1e-12);
    assertThrows(IllegalArgumentException.class, () -> Unfairness.l1(new double[2], new double[3]));
  }

  @Test
  void thePapersScoringExample() {
    // CloudShare Section 5.1: unfairness A = 60, B = 80, C = 60 gives A one point and C one point.
    PairwiseScores scores = new PairwiseScores();
    Map<String, Double> unfairness = new LinkedHashMap<>();
    unfairness.put("A", 60.0);
    unfairness.put("B", 80.0);
    unfairness.put("C", 60.0);
    scores.add(unfairness);
    assertEquals(Map.of("A", 1, "B", 0, "C", 1), scores.scores());
    scores.add(Map.of("A", 1.0, "B", 2.0, "C", 3.0));
    assertEquals(Map.of("A", 3, "B", 1, "C", 1), scores.scores());
    assertEquals(2, scores.cases());
  }

  @Test
  void roundingNoiseIsATie() {
    PairwiseScores scores = new PairwiseScores();
    // 28370.138722221713 vs ...734: the same waits summed in another order.
    scores.add(Map.of("A", 28370.138722221713, "B", 28370.138722221734, "C", 28371.0));
    assertEquals(Map.of("A", 1, "B", 1, "C", 0), scores.scores());
  }
}
