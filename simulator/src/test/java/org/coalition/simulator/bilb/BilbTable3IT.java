package org.coalition.simulator.bilb;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.coalition.policy.balancing.Bilb;
import org.junit.jupiter.api.Test;

/**
 * The BILB paper's Table 3 cases (homogeneous sites, alpha = beta = 2, lambda = 0.2, T = 1000,
 * 1000 rounds, seed 1), printed beside the published scores so every CI log shows how far the
 * model is. It asserts what the model must do (the score rises with the participation level);
 * matching the paper within 25% is not reached yet (simulator/README.md) and is not asserted.
 */
class BilbTable3IT {
  private static final double[] LEVELS = {1, 5, 10, 1000};
  /** Table 3, mean scores for l = 1, 5, 10, 1000. */
  private static final double[] PAPER_2 = {0.125, 0.574, 0.592, 0.628};
  private static final double[] PAPER_10 = {0.076, 2.148, 2.912, 3.123};

  @Test
  void twoSites() {
    report(2, PAPER_2);
  }

  @Test
  void tenSites() {
    report(10, PAPER_10);
  }

  private static void report(int sites, double[] paper) {
    double previous = Double.NEGATIVE_INFINITY;
    for (int i = 0; i < LEVELS.length; i++) {
      BilbConfig config = new BilbConfig(sites, 2, 2, 0.2, 1000, 1000, LEVELS[i], null, new Bilb(), 1, 0.2, 0.8, 0);
      long start = System.nanoTime();
      BilbResult result = new BilbModel(config).run(null);
      double score = result.typical().score();
      System.out.printf("[table3] sites=%d l=%-4.0f paper=%.3f model=%.3f (%+.0f%%) std=%.3f, %,d jobs in %.1f s%n",
          sites, LEVELS[i], paper[i], score, 100 * (score / paper[i] - 1), result.typical().std(), result.jobs(),
          (System.nanoTime() - start) / 1e9);
      assertTrue(score > previous, "the score must rise with the level: l=" + LEVELS[i] + " gives " + score);
      previous = score;
    }
  }
}
