package org.coalition.policy.fairness;

/**
 * A sum of finished jobs' utilities, kept as the linear function {@code value(T) = slope * T +
 * intercept}. ORIG and REL utilities are linear in {@code T}, so a site's whole history is two
 * numbers: this is the compact summary the coordination layer stores instead of job records.
 */
public record LinearSummary(double slope, double intercept) {
  public static final LinearSummary ZERO = new LinearSummary(0.0, 0.0);

  public LinearSummary {
    if (!Double.isFinite(slope) || !Double.isFinite(intercept)) {
      throw new IllegalArgumentException("summary must be finite: slope " + slope + ", intercept " + intercept);
    }
  }

  public double at(double now) {
    return slope * now + intercept;
  }

  public LinearSummary plus(LinearSummary other) {
    return new LinearSummary(slope + other.slope, intercept + other.intercept);
  }
}
