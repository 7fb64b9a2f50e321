package org.coalition.coordination;

import org.coalition.policy.fairness.LinearSummary;
import org.coalition.policy.fairness.Utility;

/**
 * The three DirectContr utilities summed over a set of finished jobs, each as a linear function
 * of the evaluation time (see {@link LinearSummary}): adding a job is O(1) and a site's whole
 * history stays three pairs of numbers.
 */
public record UtilitySums(LinearSummary orig, LinearSummary rel, LinearSummary simpl) {
  public static final UtilitySums ZERO = new UtilitySums(LinearSummary.ZERO, LinearSummary.ZERO, LinearSummary.ZERO);

  public static UtilitySums of(double release, RunResult run, int cores) {
    return new UtilitySums(
        Utility.ORIG.summaryOf(release, run.start(), run.end(), cores),
        Utility.REL.summaryOf(release, run.start(), run.end(), cores),
        Utility.SIMPL.summaryOf(release, run.start(), run.end(), cores));
  }

  /**
   * A payment of {@code amount} core-seconds of credit at {@code at} (a contract's, see
   * {@link LedgerRow#paid}), counted in each utility as that much work released and done at
   * {@code at}: SIMPL counts it as it is, ORIG and REL as a run of that work would grow from then.
   */
  public static UtilitySums paid(double amount, double at) {
    if (!(amount >= 0) || !Double.isFinite(amount)) {
      throw new IllegalArgumentException("a payment is a finite amount of 0 or more, was " + amount);
    }
    return new UtilitySums(new LinearSummary(amount, -amount * at), new LinearSummary(amount, 0.0), new LinearSummary(0.0, amount));
  }

  public UtilitySums plus(UtilitySums other) {
    return new UtilitySums(orig.plus(other.orig), rel.plus(other.rel), simpl.plus(other.simpl));
  }

  public LinearSummary get(Utility utility) {
    return switch (utility) {
      case ORIG -> orig;
      case REL -> rel;
      case SIMPL -> simpl;
    };
  }
}
