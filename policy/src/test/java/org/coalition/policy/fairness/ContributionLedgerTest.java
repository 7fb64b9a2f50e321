package org.coalition.policy.fairness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

class ContributionLedgerTest {
  @Test
  void purelyLocalWorkNetsToZero() {
    for (Utility u : Utility.values()) {
      ContributionLedger ledger = new ContributionLedger(u);
      ledger.record("a1", "A", "A", 0, 0, 10, 4);
      ledger.started("a2", "A", "A", 5, 10, 2);
      assertTrue(ledger.contribution("A", 20) > 0);
      assertEquals(0.0, ledger.priority("A", 20), 1e-9, u.name());
    }
  }

  @Test
  void runningAForeignJobRaisesTheExecutorAndLowersTheHome() {
    ContributionLedger ledger = new ContributionLedger(Utility.SIMPL);
    ledger.record("b1", "B", "A", 0, 0, 10, 3);
    assertEquals(30.0, ledger.priority("A", 50), 1e-12);
    assertEquals(-30.0, ledger.priority("B", 50), 1e-12);
    assertEquals(0.0, ledger.priority("C", 50), 1e-12, "an unknown site has nothing");
  }

  @Test
  void queriesMatchAFullRecomputationOverRandomHistories() {
    Random random = new Random(3);
    String[] sites = {"A", "B", "C"};
    for (Utility u : Utility.values()) {
      ContributionLedger ledger = new ContributionLedger(u);
      double[][] jobs = new double[300][];
      int[][] where = new int[300][];
      for (int i = 0; i < jobs.length; i++) {
        double r = random.nextInt(1000);
        double s = r + random.nextInt(100);
        double e = random.nextInt(4) == 0 ? Double.POSITIVE_INFINITY : s + 1 + random.nextInt(300);
        int cores = 1 + random.nextInt(4);
        int home = random.nextInt(3);
        int executor = random.nextInt(3);
        jobs[i] = new double[] {r, s, e, cores};
        where[i] = new int[] {home, executor};
        ledger.started("j" + i, sites[home], sites[executor], r, s, cores);
        if (e != Double.POSITIVE_INFINITY) {
          ledger.finished("j" + i, e);
        }
      }
      double now = 2000;
      for (int site = 0; site < 3; site++) {
        double contribution = 0;
        double utility = 0;
        for (int i = 0; i < jobs.length; i++) {
          double psi = u.of(jobs[i][0], jobs[i][1], jobs[i][2], (int) jobs[i][3], now);
          contribution += where[i][1] == site ? psi : 0;
          utility += where[i][0] == site ? psi : 0;
        }
        assertEquals(contribution, ledger.contribution(sites[site], now), 1e-9 * Math.abs(contribution));
        assertEquals(utility, ledger.utility(sites[site], now), 1e-9 * Math.abs(utility));
      }
    }
  }

  @Test
  void misuseIsRefusedWithTheJobNamed() {
    ContributionLedger ledger = new ContributionLedger(Utility.ORIG);
    ledger.started("j1", "A", "B", 0, 1, 1);
    assertTrue(assertThrows(IllegalStateException.class, () -> ledger.started("j1", "A", "B", 0, 1, 1))
        .getMessage().contains("j1"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> ledger.finished("j1", 0.5))
        .getMessage().contains("before its start"));
    assertTrue(assertThrows(IllegalStateException.class, () -> ledger.finished("nope", 3))
        .getMessage().contains("nope"));
    assertThrows(IllegalArgumentException.class, () -> ledger.started("j2", "A", "B", 0, 1, 0));
  }
}
