package org.coalition.policy.fairness;

/**
 * The utilities of a site's running jobs, in O(1) for any {@code T}. A running job counts with
 * {@code e = T}, which makes ORIG and REL quadratic in {@code T}: with {@code d = T - s},
 * ORIG is {@code c * d * (d + 1) / 2}, REL adds {@code c * r * d}, SIMPL is {@code c * d}. Keeping
 * the sums of {@code c, c*s, c*s^2, c*r, c*r*s} over running jobs evaluates all three.
 */
final class RunningSums {
  private double c;
  private double cs;
  private double css;
  private double cr;
  private double crs;

  void add(double release, double start, int cores, int sign) {
    c += sign * cores;
    cs += sign * cores * start;
    css += sign * cores * start * start;
    cr += sign * cores * release;
    crs += sign * cores * release * start;
  }

  double at(Utility utility, double now) {
    double simpl = now * c - cs;
    return switch (utility) {
      case SIMPL -> simpl;
      case ORIG -> orig(now, simpl);
      case REL -> orig(now, simpl) + now * cr - crs;
    };
  }

  private double orig(double now, double simpl) {
    // sum of c * (T - s)^2 = T^2 c - 2 T cs + css
    double squares = now * now * c - 2 * now * cs + css;
    return (squares + simpl) / 2;
  }
}
