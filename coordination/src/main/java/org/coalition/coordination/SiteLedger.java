package org.coalition.coordination;

import org.coalition.policy.fairness.Utility;

/**
 * One site's DirectContr ledger as the federation reads it ({@link Ledgers}, from the homes'
 * rows): {@code contribution} sums the utilities of the runs its machines made that their homes
 * accepted (its own jobs included), {@code utility} those of its jobs it accepted, wherever they
 * ran; the counts say how many runs each side holds.
 */
public record SiteLedger(String site, UtilitySums contribution, UtilitySums utility, long jobsExecuted, long jobsSubmitted) {
  public static SiteLedger empty(String site) {
    return new SiteLedger(site, UtilitySums.ZERO, UtilitySums.ZERO, 0, 0);
  }

  /** DirectContr priority at {@code now}: contribution minus utility. */
  public double priority(Utility u, double now) {
    return contribution.get(u).at(now) - utility.get(u).at(now);
  }
}
