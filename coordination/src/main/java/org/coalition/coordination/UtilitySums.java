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
