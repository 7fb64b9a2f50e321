package org.coalition.policy.balancing;

import java.util.ArrayList;
import java.util.List;

/**
 * Averaging load balancing (baseline, BILB paper Section 3.2): every site ends at the mean queue
 * length; sites above it send the excess to sites below it. Participation levels are ignored.
 */
public final class AveragingBalancer implements LoadBalancer {
  @Override
  public String name() {
    return "averaging";
  }

  @Override
  public BalancingPlan balance(List<SiteLoad> input) {
    List<SiteLoad> sites = Bilb.sortedByLoad(input);
    int n = sites.size();
    double mean = sites.stream().mapToDouble(SiteLoad::load).sum() / Math.max(1, n);
    double[] sent = new double[n];
    double[] received = new double[n];
    List<Transfer> transfers = new ArrayList<>();
    long updates = 0;
    // Receivers are at the front (lowest load), senders at the back: fill greedily.
    int receiver = 0;
    for (int sender = n - 1; sender >= 0 && sites.get(sender).load() > mean; sender--) {
      double excess = sites.get(sender).load() - mean;
      while (excess > 1e-12 && receiver < sender) {
        double room = mean - sites.get(receiver).load() - received[receiver];
        updates++;
        if (room <= 1e-12) {
          receiver++;
          continue;
        }
        double amount = Math.min(room, excess);
        received[receiver] += amount;
        sent[sender] += amount;
        excess -= amount;
        transfers.add(new Transfer(sites.get(sender).site(), sites.get(receiver).site(), amount));
      }
    }
    return BalancingPlan.of(sites, sent, received, transfers, updates);
  }
}
