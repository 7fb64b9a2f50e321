package org.coalition.policy.balancing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class AveragingBalancerTest {
  @Test
  void everySiteEndsAtTheMeanAndLoadIsConserved() {
    Random random = new Random(9);
    AveragingBalancer averaging = new AveragingBalancer();
    for (int round = 0; round < 500; round++) {
      int n = 1 + random.nextInt(10);
      List<SiteLoad> sites = new ArrayList<>();
      double total = 0;
      for (int i = 0; i < n; i++) {
        double load = random.nextDouble() * 100;
        total += load;
        sites.add(new SiteLoad("s" + i, load, 0));
      }
      BalancingPlan plan = averaging.balance(sites);
      double mean = total / n;
      double sent = 0;
      double received = 0;
      for (SiteLoad s : sites) {
        BalancingPlan.Outcome o = plan.outcome(s.site());
        assertEquals(mean, o.finalLoad(), 1e-6, s.site());
        sent += o.sent();
        received += o.received();
      }
      assertEquals(sent, received, 1e-6);
    }
  }

  @Test
  void agreesWithUnboundedBilbOnTwoSites() {
    List<SiteLoad> sites = List.of(new SiteLoad("A", 13, 1e9), new SiteLoad("B", 5, 1e9));
    BalancingPlan averaging = new AveragingBalancer().balance(sites);
    BalancingPlan bilb = new Bilb().balance(sites);
    assertEquals(averaging.transfers(), bilb.transfers());
  }
}
