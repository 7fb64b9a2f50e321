package org.coalition.policy.balancing;

import org.coalition.policy.text.Numbers;

/**
 * Learning a participation level from experience (BILB paper, Section 6.3), once per period:
 * {@code R = F / F~} (flow time with / without the federation) bounded to [1/2, 2]; if R > 1 the
 * federation hurt, {@code delta = -1}; otherwise {@code delta = +1} and {@code R = 1/R}; then
 * {@code l += sigma * l * delta * (R - 1)}.
 */
public final class ParticipationLearning {
  private final double sigma;

  /** @param sigma the learning coefficient, in (0, 1] */
  public ParticipationLearning(double sigma) {
    if (!(sigma > 0 && sigma <= 1)) {
      throw new IllegalArgumentException("learning coefficient sigma must be in (0, 1], was " + sigma);
    }
    this.sigma = sigma;
  }

  /** The new level and why. */
  public record Adjustment(double level, double ratio, int delta, String reason) {}

  /**
   * @param level the current declared level
   * @param flowWith F: the flow time of local jobs with the federation, this period
   * @param flowWithout F~: what it would have been without
   */
  public Adjustment next(double level, double flowWith, double flowWithout) {
    if (!(level >= 0) || !(flowWith >= 0) || !(flowWithout >= 0)) {
      throw new IllegalArgumentException(
          "level and flow times must be >= 0: level " + level + ", F " + flowWith + ", F~ " + flowWithout);
    }
    if (flowWith == 0 || flowWithout == 0) {
      return new Adjustment(level, 1.0, 0, "no local flow time to compare this period; level unchanged");
    }
    double ratio = Math.max(0.5, Math.min(2.0, flowWith / flowWithout));
    int delta = ratio > 1 ? -1 : +1;
    double r = ratio > 1 ? ratio : 1 / ratio;
    double next = level + sigma * level * delta * (r - 1);
    String reason = "F/F~ = " + Numbers.format(ratio) + ": the federation " + (delta < 0 ? "slowed" : "did not slow")
        + " local jobs; level " + Numbers.format(level) + " -> " + Numbers.format(next);
    return new Adjustment(next, ratio, delta, reason);
  }
}
