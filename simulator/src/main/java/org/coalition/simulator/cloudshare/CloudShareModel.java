package org.coalition.simulator.cloudshare;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.coalition.policy.fairness.PolicyName;
import org.coalition.policy.shapley.CoalitionGame;
import org.coalition.policy.shapley.Shapley;
import org.coalition.policy.shapley.Unfairness;
import org.coalition.simulator.random.Variates;

/**
 * Evaluates one case: the value of all 2^N - 1 coalitions (their members' total wait, FCFS: any
 * work-conserving order gives the same total), each site's Shapley value, then one schedule of the
 * grand coalition per algorithm and its distance to the Shapley values.
 */
public final class CloudShareModel {
  private CloudShareModel() {}

  public static CaseResult evaluate(CloudShareCase c, List<PolicyName> algorithms, long seed) {
    int n = c.sites();
    if (n > CoalitionGame.MAX_PLAYERS) {
      throw new IllegalArgumentException("--sites must be at most " + CoalitionGame.MAX_PLAYERS + " (2^N coalitions), was " + n);
    }
    Variates random = new Variates(seed);
    // The grand coalition's value and the algorithms' schedules meet the same order of free cores:
    // with background load (scenario 3) where a federated task runs can delay a local one, so the
    // total wait is the same for every policy only under the same placement order.
    long grand = random.nextSeed();
    double[] values = new double[1 << n];
    for (int mask = 1; mask < values.length; mask++) {
      double total = 0;
      Variates order = mask == values.length - 1 ? new Variates(grand) : random.split();
      for (double w : CoalitionRun.waits(c, mask, null, order)) {
        total += w;
      }
      values[mask] = total;
    }
    double[] phi = Shapley.values(CoalitionGame.of(n, values));
    Map<String, Integer> cores = new HashMap<>();
    for (int i = 0; i < n; i++) {
      cores.put(Integer.toString(i), c.cores()[i]);
    }
    Map<String, double[]> waits = new LinkedHashMap<>();
    Map<String, Double> l1 = new LinkedHashMap<>();
    Map<String, Double> l2 = new LinkedHashMap<>();
    for (PolicyName algorithm : algorithms) {
      double[] w = CoalitionRun.waits(c, (1 << n) - 1, algorithm.create(cores), new Variates(grand));
      waits.put(algorithm.name(), w);
      l1.put(algorithm.name(), Unfairness.l1(w, phi));
      l2.put(algorithm.name(), Unfairness.l2(w, phi));
    }
    return new CaseResult(c, phi, waits, l1, l2);
  }
}
