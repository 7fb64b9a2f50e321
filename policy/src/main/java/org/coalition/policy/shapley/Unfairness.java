package org.coalition.policy.shapley;

/**
 * The unfairness of a schedule: the distance between each site's outcome (its total wait time in
 * the grand coalition) and its Shapley value. L1 by default; L2 also reported.
 */
public final class Unfairness {
  private Unfairness() {}

  public static double l1(double[] outcome, double[] fair) {
    check(outcome, fair);
    double sum = 0;
    for (int i = 0; i < outcome.length; i++) {
      sum += Math.abs(outcome[i] - fair[i]);
    }
    return sum;
  }

  public static double l2(double[] outcome, double[] fair) {
    check(outcome, fair);
    double sum = 0;
    for (int i = 0; i < outcome.length; i++) {
      double d = outcome[i] - fair[i];
      sum += d * d;
    }
    return Math.sqrt(sum);
  }

  private static void check(double[] outcome, double[] fair) {
    if (outcome.length != fair.length) {
      throw new IllegalArgumentException(
          "outcome has " + outcome.length + " sites but the fair vector has " + fair.length);
    }
  }
}
