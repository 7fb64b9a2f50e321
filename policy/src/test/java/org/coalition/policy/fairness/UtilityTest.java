package org.coalition.policy.fairness;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class UtilityTest {
  @Test
  void formulasOfThePaperByHand() {
    // r = 1, s = 2, e = 5, 3 cores, T = 10: w = 9, (s + e - 1) / 2 = 3.
    assertEquals(9 * (10 - 3.0), Utility.ORIG.of(1, 2, 5, 3, 10), 1e-12);
    assertEquals(9 * (10 + 1 - 3.0), Utility.REL.of(1, 2, 5, 3, 10), 1e-12);
    assertEquals(9, Utility.SIMPL.of(1, 2, 5, 3, 10), 1e-12);
  }

  @Test
  void aRunningJobCountsUntilNow() {
    double running = Double.POSITIVE_INFINITY;
    assertEquals(Utility.ORIG.of(0, 2, 4, 1, 4), Utility.ORIG.of(0, 2, running, 1, 4), 1e-12);
    assertEquals(0.0, Utility.SIMPL.of(0, 2, running, 1, 2), 1e-12, "nothing done yet");
    assertEquals(0.0, Utility.ORIG.of(0, 5, 9, 1, 3), 1e-12, "not started yet at T");
  }

  @Test
  void finishedSummaryIsTheUtilityAtEveryTime() {
    Random random = new Random(7);
    for (Utility u : Utility.values()) {
      for (int i = 0; i < 1000; i++) {
        double r = random.nextInt(1000);
        double s = r + random.nextInt(500);
        double e = s + 1 + random.nextInt(500);
        int cores = 1 + random.nextInt(16);
        double t = e + random.nextInt(5000);
        assertEquals(u.of(r, s, e, cores, t), u.summaryOf(r, s, e, cores).at(t), 1e-6 * Math.max(1, Math.abs(u.of(r, s, e, cores, t))));
      }
    }
  }

  @Test
  void runningSumsEqualTheSumOfRunningJobs() {
    Random random = new Random(11);
    for (Utility u : Utility.values()) {
      RunningSums sums = new RunningSums();
      List<double[]> jobs = new ArrayList<>();
      for (int i = 0; i < 200; i++) {
        double r = random.nextInt(1000);
        double s = r + random.nextInt(100);
        int cores = 1 + random.nextInt(8);
        jobs.add(new double[] {r, s, cores});
        sums.add(r, s, cores, +1);
      }
      // remove a few again, as finished jobs leave the running sums
      for (int i = 0; i < 50; i++) {
        double[] j = jobs.remove(random.nextInt(jobs.size()));
        sums.add(j[0], j[1], (int) j[2], -1);
      }
      double now = 1200;
      double expected = 0;
      for (double[] j : jobs) {
        expected += u.of(j[0], j[1], Double.POSITIVE_INFINITY, (int) j[2], now);
      }
      assertEquals(expected, sums.at(u, now), 1e-9 * Math.abs(expected), u.name());
    }
  }
}
