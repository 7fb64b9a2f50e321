package org.coalition.simulator.bilb;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.coalition.policy.balancing.AveragingBalancer;
import org.coalition.policy.balancing.Bilb;
import org.coalition.policy.balancing.LoadBalancer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The BILB paper's Section 6.2 in the model's scores: with bounds off (l = 1000), iterative
 * balancing makes the jobs of every cluster but the most loaded finish earlier than averaging
 * does, so in a homogeneous federation, where every site is by turns the most loaded, every
 * site scores higher under BILB than under averaging. Same seed, so both runs see the same
 * arrivals and sizes (alpha = beta = 2, lambda = 0.2, T = 1000, 1000 rounds, quantum 1).
 */
class IterativeVersusAveragingIT {

  @ParameterizedTest(name = "{0} sites")
  @ValueSource(ints = {5, 10})
  void everySiteScoresHigherUnderIterativeBalancingThanUnderAveraging(int sites) {
    BilbResult iterative = run(sites, new Bilb());
    BilbResult averaging = run(sites, new AveragingBalancer());
    System.out.printf("[section6.2] sites=%d typical: bilb(1000)=%.3f averaging=%.3f (%+.0f%%)%n", sites,
        iterative.typical().score(), averaging.typical().score(), 100 * (iterative.typical().score() / averaging.typical().score() - 1));
    for (int i = 0; i < sites; i++) {
      double bilb = iterative.perSite().get(i).score();
      double avg = averaging.perSite().get(i).score();
      assertTrue(bilb > avg, "site " + i + " of " + sites + ": BILB(1000) scored " + bilb + ", averaging " + avg);
    }
    assertTrue(iterative.typical().score() > 1.05 * averaging.typical().score(), "the typical site gains under 5% from iterative balancing: "
        + iterative.typical().score() + " against " + averaging.typical().score());
  }

  private static BilbResult run(int sites, LoadBalancer balancer) {
    return new BilbModel(new BilbConfig(sites, 2, 2, 0.2, 1000, 1000, 1000, null, balancer, 1, 0.2, 0.8, 1, 0)).run(null);
  }
}
