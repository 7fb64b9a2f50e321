package org.coalition.policy.fairness;

import java.util.Map;

/** The policies by the names the papers and the command line use. */
public enum PolicyName {
  ORIG_DIRECT,
  REL_DIRECT,
  SIMPL_DIRECT,
  FAIRSHARE,
  ROUND_ROBIN;

  /** A fresh policy; {@code cores} (site to cores) is used by FairShare for the shares. */
  public JobSelectionPolicy create(Map<String, Integer> cores) {
    return switch (this) {
      case ORIG_DIRECT -> new DirectContrPolicy(Utility.ORIG);
      case REL_DIRECT -> new DirectContrPolicy(Utility.REL);
      case SIMPL_DIRECT -> new DirectContrPolicy(Utility.SIMPL);
      case FAIRSHARE -> new FairSharePolicy(cores);
      case ROUND_ROBIN -> new RoundRobinPolicy();
    };
  }
}
