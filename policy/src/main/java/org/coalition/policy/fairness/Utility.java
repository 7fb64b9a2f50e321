package org.coalition.policy.fairness;

/**
 * The per-job utility functions of the CloudShare paper (its Eq. 2-4). With {@code T = now},
 * {@code w = (e - s) * cores} and {@code e} replaced by {@code min(e, T)} for a running job:
 *
 * <ul>
 *   <li>{@link #ORIG}: {@code psi = w * (T - (s + e - 1) / 2)}
 *   <li>{@link #REL}: {@code psi' = w * (T + r - (e + s - 1) / 2)}
 *   <li>{@link #SIMPL}: {@code psi'' = w}
 * </ul>
 *
 * Times are seconds since the federation's epoch (the simulator: the start of the simulated
 * period). {@code r} enters REL as it is, so REL depends on that epoch; docs/decisions record it.
 */
public enum Utility {
  ORIG,
  REL,
  SIMPL;

  /** The unit of this utility's sums, for people: SIMPL is work; ORIG and REL weigh work by how long ago it ran. */
  public String unit() {
    return this == SIMPL ? "core-seconds" : "core-seconds x seconds";
  }

  /**
   * The utility of one job at time {@code now}.
   *
   * @param end the job's end, or {@code Double.POSITIVE_INFINITY} while it runs
   */
  public double of(double release, double start, double end, int cores, double now) {
    double e = Math.min(end, now);
    if (e <= start) {
      return 0.0;
    }
    double w = (e - start) * cores;
    return switch (this) {
      case ORIG -> w * (now - (start + e - 1) / 2);
      case REL -> w * (now + release - (e + start - 1) / 2);
      case SIMPL -> w;
    };
  }

  /**
   * The utility of a finished job as a linear function of {@code T}: ORIG and REL grow with
   * slope {@code w}, SIMPL is constant. Summing these is how a site's history stays O(1).
   */
  public LinearSummary summaryOf(double release, double start, double end, int cores) {
    if (end <= start) {
      return LinearSummary.ZERO;
    }
    double w = (end - start) * cores;
    double mid = (start + end - 1) / 2;
    return switch (this) {
      case ORIG -> new LinearSummary(w, -w * mid);
      case REL -> new LinearSummary(w, w * (release - mid));
      case SIMPL -> new LinearSummary(0.0, w);
    };
  }
}
