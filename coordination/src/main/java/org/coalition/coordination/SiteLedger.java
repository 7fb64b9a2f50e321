package org.coalition.coordination;

import org.coalition.policy.fairness.Utility;

/**
 * One site's DirectContr ledger as folded so far: {@code contribution} sums the utilities of jobs
 * its machines ran (its own included), {@code utility} those of jobs it submitted, wherever they
 * ran; the counts say how many finished jobs each side holds.
 */
public record SiteLedger(String site, UtilitySums contribution, UtilitySums utility, long jobsExecuted, long jobsSubmitted) {
  public static SiteLedger empty(String site) {
    return new SiteLedger(site, UtilitySums.ZERO, UtilitySums.ZERO, 0, 0);
  }

  public SiteLedger executed(UtilitySums sums) {
    return new SiteLedger(site, contribution.plus(sums), utility, jobsExecuted + 1, jobsSubmitted);
  }

  public SiteLedger submitted(UtilitySums sums) {
    return new SiteLedger(site, contribution, utility.plus(sums), jobsExecuted, jobsSubmitted + 1);
  }

  /** DirectContr priority at {@code now}: contribution minus utility. */
  public double priority(Utility u, double now) {
    return contribution.get(u).at(now) - utility.get(u).at(now);
  }
}
