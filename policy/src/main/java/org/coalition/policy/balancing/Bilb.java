package org.coalition.policy.balancing;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Bounded, iterative load balancing (BILB paper, Section 6.1, with DESIGN.md's corrections).
 *
 * <p>Sites are sorted by increasing queue length L (ties by site id). Site k balances with sites
 * 1..k-1, whose running mean is {@code mean_k = ((k-1) mean_{k-1} + L_k) / k}. It may send at most
 * {@code Psi*_k = min(L_k - mean_k, l_k)} (the paper prints max; its text means min). Receiver i's
 * room is {@code max(0, min(mean_k - cur_i, l_i - cur_i))} with {@code cur_i = L_i + Phi_i - Psi_i};
 * receivers are visited by increasing room, each taking {@code min(room, left / receivers left)}.
 *
 * <p>Guarantees (checked by the property tests): load is conserved; a site that receives anything
 * ends with a queue of at most its level {@code l_i}; a site never sends more than its {@code l_i};
 * the least-loaded site never sends. Work: n(n-1)/2 receiver updates, plus sorting each step's
 * receivers (O(n^2 log n) comparisons).
 */
public final class Bilb implements LoadBalancer {
  @Override
  public String name() {
    return "bilb";
  }

  @Override
  public BalancingPlan balance(List<SiteLoad> input) {
    List<SiteLoad> sites = sortedByLoad(input);
    int n = sites.size();
    double[] load = new double[n];
    double[] level = new double[n];
    double[] sent = new double[n];
    double[] received = new double[n];
    for (int i = 0; i < n; i++) {
      load[i] = sites.get(i).load();
      level[i] = sites.get(i).participation();
    }
    List<Transfer> transfers = new ArrayList<>();
    long updates = 0;
    double mean = n == 0 ? 0 : load[0];
    Integer[] receivers = new Integer[n];
    double[] room = new double[n];
    for (int k = 1; k < n; k++) {
      mean = (k * mean + load[k]) / (k + 1);
      double left = Math.min(load[k] - mean, level[k]);
      if (left <= 0) {
        continue;
      }
      for (int i = 0; i < k; i++) {
        double current = load[i] + received[i] - sent[i];
        room[i] = Math.max(0, Math.min(mean - current, level[i] - current));
        receivers[i] = i;
      }
      Arrays.sort(receivers, 0, k, Comparator.comparingDouble((Integer i) -> room[i]).thenComparing(i -> i));
      for (int r = 0; r < k; r++) {
        int i = receivers[r];
        updates++;
        double share = Math.min(room[i], left / (k - r));
        if (share > 0) {
          received[i] += share;
          sent[k] += share;
          left -= share;
          transfers.add(new Transfer(sites.get(k).site(), sites.get(i).site(), share));
        }
      }
    }
    return BalancingPlan.of(sites, sent, received, transfers, updates);
  }

  /** Increasing load, ties by site id; duplicate sites are refused. */
  static List<SiteLoad> sortedByLoad(List<SiteLoad> input) {
    Set<String> seen = new HashSet<>();
    for (SiteLoad s : input) {
      if (!seen.add(s.site())) {
        throw new IllegalArgumentException("site " + s.site() + " appears twice in one balancing period");
      }
    }
    List<SiteLoad> sites = new ArrayList<>(input);
    sites.sort(Comparator.comparingDouble(SiteLoad::load).thenComparing(SiteLoad::site));
    return sites;
  }
}
