package org.coalition.simulator.bilb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.coalition.policy.balancing.Bilb;
import org.junit.jupiter.api.Test;

/**
 * The BILB paper's Table 3 cases (homogeneous sites, alpha = beta = 2, lambda = 0.2, T = 1000,
 * 1000 rounds, seed 1, the discrete model with a quantum of 1), printed beside the published
 * scores so every CI log shows how far the model is. Asserted: the curve's shape (it rises
 * strictly with the level, then saturates: l = 1000 within 10% of l = 10) and the 25% agreement in
 * every case that reaches it. Four cases do not (l = 10 and 1000: 2 sites about +34%, 10 sites
 * about +28%); simulator/README.md records that gap with the model's values, and those cells are
 * pinned within 5% of the recorded values, so the gap cannot grow (or shrink) unnoticed either.
 */
class BilbTable3IT {
  private static final double[] LEVELS = {1, 5, 10, 1000};
  /** Table 3, mean scores for l = 1, 5, 10, 1000. */
  private static final double[] PAPER_2 = {0.125, 0.574, 0.592, 0.628};
  private static final double[] PAPER_10 = {0.076, 2.148, 2.912, 3.123};
  /** The known gap, l index by l index: the model's scores as simulator/README.md records them (NaN: no gap). */
  private static final double[] GAP_2 = {Double.NaN, Double.NaN, 0.789, 0.839};
  private static final double[] GAP_10 = {Double.NaN, Double.NaN, 3.713, 4.005};

  @Test
  void twoSites() {
    report(2, PAPER_2, GAP_2);
  }

  @Test
  void tenSites() {
    report(10, PAPER_10, GAP_10);
  }

  private static void report(int sites, double[] paper, double[] knownGap) {
    double[] scores = new double[LEVELS.length];
    for (int i = 0; i < LEVELS.length; i++) {
      BilbConfig config = new BilbConfig(sites, 2, 2, 0.2, 1000, 1000, LEVELS[i], null, new Bilb(), 1, 0.2, 0.8, 1, 0);
      long start = System.nanoTime();
      BilbResult result = new BilbModel(config).run(null);
      scores[i] = result.typical().score();
      System.out.printf("[table3] sites=%d l=%-4.0f paper=%.3f model=%.3f (%+.0f%%) std=%.3f, %,d jobs in %.1f s%n",
          sites, LEVELS[i], paper[i], scores[i], 100 * (scores[i] / paper[i] - 1), result.typical().std(),
          result.jobs(), (System.nanoTime() - start) / 1e9);
    }
    for (int i = 0; i < LEVELS.length; i++) {
      if (i > 0) {
        assertTrue(scores[i] > scores[i - 1], "the score must rise with l: l=" + LEVELS[i] + " gives " + scores[i] + ", l="
            + LEVELS[i - 1] + " gave " + scores[i - 1]);
      }
      if (Double.isNaN(knownGap[i])) {
        assertEquals(paper[i], scores[i], 0.25 * paper[i], sites + " sites, l=" + LEVELS[i] + ": more than 25% from the paper");
      } else {
        assertEquals(knownGap[i], scores[i], 0.05 * knownGap[i], sites + " sites, l=" + LEVELS[i]
            + ": the known gap moved more than 5% from the value simulator/README.md records");
      }
    }
    assertEquals(scores[2], scores[3], 0.1 * scores[2], "the curve must saturate: l=10 and l=1000 within 10%");
  }
}
