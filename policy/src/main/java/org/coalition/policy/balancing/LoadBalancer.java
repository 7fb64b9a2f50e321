package org.coalition.policy.balancing;

import java.util.List;

/** Decides, once per period, how much queued work moves between sites. */
public interface LoadBalancer {
  String name();

  BalancingPlan balance(List<SiteLoad> sites);
}
