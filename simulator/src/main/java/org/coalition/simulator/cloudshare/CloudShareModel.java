package org.coalition.simulator.cloudshare;

import java.util.ArrayList;
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
 * Evaluates one case as the paper does: for each algorithm, one schedule of each of the 2^N - 1
 * coalitions. A coalition's value is its members' total wait (any work-conserving order gives the
 * same total with unit tasks, FCFS computes it); every coalition of two or more sites is then
 * judged on its own: each algorithm's waits in it against the Shapley values of the game
 * restricted to its members. Coalitions of one site are the same schedule for every algorithm.
 */
public final class CloudShareModel {
  private CloudShareModel() {}

  public static CaseResult evaluate(CloudShareCase c, List<PolicyName> algorithms, long seed) {
    int n = c.sites();
    if (n > CoalitionGame.MAX_PLAYERS) {
      throw new IllegalArgumentException("--sites must be at most " + CoalitionGame.MAX_PLAYERS + " (2^N coalitions), was " + n);
    }
    Variates random = new Variates(seed);
    // A coalition's value and the algorithms' schedules of it meet the same order of free cores:
    // with background load (scenario 3) where a federated task runs can delay a local one, so the
    // total wait is the same for every policy only under the same placement order.
    int all = (1 << n) - 1;
    long[] orders = new long[all + 1];
    double[] values = new double[all + 1];
    for (int mask = 1; mask <= all; mask++) {
      orders[mask] = random.nextSeed();
      double total = 0;
      for (double w : CoalitionRun.waits(c, mask, null, new Variates(orders[mask]))) {
        total += w;
      }
      values[mask] = total;
    }
    List<CaseResult.Coalition> coalitions = new ArrayList<>();
    for (int mask = 1; mask <= all; mask++) {
      if (Integer.bitCount(mask) >= 2) {
        coalitions.add(judge(c, mask, values, algorithms, orders[mask]));
      }
    }
    return new CaseResult(c, coalitions);
  }

  private static CaseResult.Coalition judge(CloudShareCase c, int mask, double[] values, List<PolicyName> algorithms,
      long order) {
    int[] members = new int[Integer.bitCount(mask)];
    for (int i = 0, k = 0; i < c.sites(); i++) {
      if ((mask >>> i & 1) != 0) {
        members[k++] = i;
      }
    }
    // The game restricted to the members: sub-coalition s (over member indices) is mask's subset.
    double[] sub = new double[1 << members.length];
    for (int s = 1; s < sub.length; s++) {
      int subset = 0;
      for (int k = 0; k < members.length; k++) {
        if ((s >>> k & 1) != 0) {
          subset |= 1 << members[k];
        }
      }
      sub[s] = values[subset];
    }
    double[] phi = Shapley.values(CoalitionGame.of(members.length, sub));
    Map<String, Integer> cores = new HashMap<>();
    for (int m : members) {
      cores.put(Integer.toString(m), c.cores()[m]);
    }
    Map<String, double[]> waits = new LinkedHashMap<>();
    Map<String, Double> l1 = new LinkedHashMap<>();
    Map<String, Double> l2 = new LinkedHashMap<>();
    for (PolicyName algorithm : algorithms) {
      double[] all = CoalitionRun.waits(c, mask, algorithm.create(cores), new Variates(order));
      double[] w = new double[members.length];
      for (int k = 0; k < members.length; k++) {
        w[k] = all[members[k]];
      }
      waits.put(algorithm.name(), w);
      l1.put(algorithm.name(), Unfairness.l1(w, phi));
      l2.put(algorithm.name(), Unfairness.l2(w, phi));
    }
    return new CaseResult.Coalition(mask, members, phi, waits, l1, l2);
  }
}
