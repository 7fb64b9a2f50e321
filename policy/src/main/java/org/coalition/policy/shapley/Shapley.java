package org.coalition.policy.shapley;

/**
 * Exact Shapley values: {@code phi_o = sum over S not containing o of |S|! (n-|S|-1)! / n! *
 * (v(S + o) - v(S))}. O(n 2^n) time, O(n) extra memory.
 */
public final class Shapley {
  private Shapley() {}

  public static double[] values(CoalitionGame game) {
    int n = game.players();
    double[] weight = weights(n);
    double[] phi = new double[n];
    int all = game.all();
    for (int mask = 0; mask <= all; mask++) {
      int size = Integer.bitCount(mask);
      if (size == n) {
        continue;
      }
      double base = game.value(mask);
      for (int o = 0; o < n; o++) {
        int bit = 1 << o;
        if ((mask & bit) == 0) {
          phi[o] += weight[size] * (game.value(mask | bit) - base);
        }
      }
    }
    return phi;
  }

  /** {@code weight[s] = s! (n-s-1)! / n!}, computed as a product to stay exact enough in doubles. */
  static double[] weights(int n) {
    double[] weight = new double[n];
    for (int s = 0; s < n; s++) {
      // s! (n-s-1)! / n! = 1 / (n * C(n-1, s))
      double binomial = 1;
      for (int k = 1; k <= s; k++) {
        binomial = binomial * (n - 1 - s + k) / k;
      }
      weight[s] = 1 / (n * binomial);
    }
    return weight;
  }
}
