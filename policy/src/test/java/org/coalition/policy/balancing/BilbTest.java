package org.coalition.policy.balancing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class BilbTest {
  private static final double EPS = 1e-9;
  private final Bilb bilb = new Bilb();

  @Test
  void twoSitesWithUnboundedLevelsMeetAtTheMean() {
    BalancingPlan plan = bilb.balance(List.of(new SiteLoad("A", 10, 1e9), new SiteLoad("B", 2, 1e9)));
    assertEquals(6, plan.outcome("A").finalLoad(), EPS);
    assertEquals(6, plan.outcome("B").finalLoad(), EPS);
    assertEquals(List.of(new Transfer("A", "B", 4)), plan.transfers());
  }

  @Test
  void theSenderIsBoundedByItsOwnLevelAndTheReceiverByItsLevel() {
    // A may send at most 1; B would take 4 to reach the mean but its level caps its queue at 3.
    assertEquals(1, bilb.balance(List.of(new SiteLoad("A", 10, 1), new SiteLoad("B", 2, 100))).outcome("A").sent(), EPS);
    BalancingPlan capped = bilb.balance(List.of(new SiteLoad("A", 10, 100), new SiteLoad("B", 2, 3)));
    assertEquals(1, capped.outcome("B").received(), EPS);
    assertEquals(3, capped.outcome("B").finalLoad(), EPS);
  }

  @Test
  void iterativeBalancingFavoursTheLessLoaded() {
    // Sorted 0, 4, 20. Site at 4 first balances with 0 (both reach 2); 20 then balances with the
    // two of them towards the mean of all three, 8.
    BalancingPlan plan = bilb.balance(List.of(
        new SiteLoad("C", 20, 1e9), new SiteLoad("A", 0, 1e9), new SiteLoad("B", 4, 1e9)));
    assertEquals(2, plan.outcome("B").sent(), EPS);
    assertEquals(12, plan.outcome("C").sent(), EPS);
    for (String site : new String[] {"A", "B", "C"}) {
      assertEquals(8, plan.outcome(site).finalLoad(), EPS, site);
    }
  }

  @Test
  void guaranteesHoldForRandomFederations() {
    Random random = new Random(2024);
    for (int round = 0; round < 2000; round++) {
      int n = 1 + random.nextInt(12);
      List<SiteLoad> sites = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        double load = random.nextInt(4) == 0 ? 0 : random.nextDouble() * 100;
        double level = random.nextInt(5) == 0 ? 1e9 : random.nextDouble() * 50;
        sites.add(new SiteLoad("s" + i, load, level));
      }
      checkGuarantees(sites, bilb.balance(sites));
    }
  }

  @Test
  void withBoundsOffEverySiteSendsAtLeastWhatAveragingSendsAndKeepsOnlyTheMeanOfTheLighterOnes() {
    // Section 6.2 on n sites, L_1 <= ... <= L_n: iterative balancing sends Psi_k = L_k - mean_k
    // (mean_k: the mean of the k least loaded), at least averaging's s_k = max(0, L_k - L) and the
    // same for the most loaded; so site k keeps mean_k <= L of its own known work (its jobs known
    // at balancing finish by mean_k, where averaging finishes them by L)
    Random random = new Random(62);
    AveragingBalancer averaging = new AveragingBalancer();
    for (int round = 0; round < 500; round++) {
      int n = 2 + random.nextInt(29);
      List<SiteLoad> sites = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        sites.add(new SiteLoad("s" + i, random.nextInt(5) == 0 ? 0 : random.nextDouble() * 100, 1e9));
      }
      BalancingPlan iterative = bilb.balance(sites);
      BalancingPlan averaged = averaging.balance(sites);
      List<SiteLoad> sorted = Bilb.sortedByLoad(sites);
      double sum = 0;
      for (int k = 0; k < n; k++) {
        SiteLoad s = sorted.get(k);
        sum += s.load();
        double meanK = sum / (k + 1);
        double psi = iterative.outcome(s.site()).sent();
        double averagingSends = averaged.outcome(s.site()).sent();
        assertEquals(s.load() - meanK, psi, 1e-6, () -> s + ": Psi_k = L_k - mean_k");
        assertTrue(psi >= averagingSends - 1e-6, () -> s + " sends " + psi + " iteratively, " + averagingSends + " by averaging");
        if (k == n - 1) {
          assertEquals(averagingSends, psi, 1e-6, "the most loaded site sends the same by either");
        }
      }
      double mean = sum / n;
      for (SiteLoad s : sites) {
        assertEquals(mean, iterative.outcome(s.site()).finalLoad(), 1e-6, "with bounds off every queue ends at the mean, as averaging's");
      }
    }
  }

  @Test
  void aThousandSitesTakeAtMostNSquaredOverTwoReceiverUpdates() {
    Random random = new Random(5);
    List<SiteLoad> sites = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      sites.add(new SiteLoad("s" + i, random.nextDouble() * 1000, 1e9));
    }
    BalancingPlan plan = bilb.balance(sites);
    assertTrue(plan.receiverUpdates() <= 1000L * 999 / 2, "updates: " + plan.receiverUpdates());
    assertTrue(plan.receiverUpdates() > 0);
    checkGuarantees(sites, plan);
  }

  @Test
  void aSiteNamedTwiceIsRefused() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> bilb.balance(List.of(new SiteLoad("A", 1, 1), new SiteLoad("A", 2, 1))));
    assertTrue(e.getMessage().contains("site A appears twice"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> new SiteLoad("A", -1, 1));
    assertThrows(IllegalArgumentException.class, () -> new SiteLoad("A", Double.NaN, 1));
  }

  static void checkGuarantees(List<SiteLoad> sites, BalancingPlan plan) {
    double sent = 0;
    double received = 0;
    String leastLoaded = Bilb.sortedByLoad(sites).get(0).site();
    for (SiteLoad s : sites) {
      BalancingPlan.Outcome o = plan.outcome(s.site());
      sent += o.sent();
      received += o.received();
      assertTrue(o.sent() >= 0 && o.received() >= 0);
      assertTrue(o.sent() <= s.participation() + EPS, () -> s + " sent " + o.sent());
      if (o.received() > 0) {
        assertTrue(o.finalLoad() <= s.participation() + EPS, () -> s + " received and ends at " + o.finalLoad());
      }
      assertTrue(o.finalLoad() >= -EPS, () -> s + " ends negative");
    }
    assertEquals(0, plan.outcome(leastLoaded).sent(), EPS, "the least-loaded site never sends");
    assertEquals(sent, received, 1e-6, "load is conserved");
    assertEquals(sent, plan.totalMoved(), 1e-6);
  }
}
