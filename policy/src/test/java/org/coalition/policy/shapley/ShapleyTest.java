package org.coalition.policy.shapley;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Random;
import org.junit.jupiter.api.Test;

class ShapleyTest {
  private static final double EPS = 1e-9;

  private static CoalitionGame random(int n, Random random) {
    double[] v = new double[1 << n];
    for (int mask = 1; mask < v.length; mask++) {
      v[mask] = random.nextInt(201) - 100;
    }
    return CoalitionGame.of(n, v);
  }

  @Test
  void gloveGameByHand() {
    // Player 0 owns a left glove, players 1 and 2 a right one; a pair is worth 1.
    double[] v = new double[8];
    v[0b011] = 1;
    v[0b101] = 1;
    v[0b111] = 1;
    assertArrayEquals(new double[] {2.0 / 3, 1.0 / 6, 1.0 / 6}, Shapley.values(CoalitionGame.of(3, v)), EPS);
  }

  @Test
  void efficiencyTheValuesShareTheGrandCoalition() {
    Random random = new Random(1);
    for (int n = 1; n <= 8; n++) {
      for (int k = 0; k < 20; k++) {
        CoalitionGame game = random(n, random);
        double sum = 0;
        for (double phi : Shapley.values(game)) {
          sum += phi;
        }
        assertEquals(game.value(game.all()), sum, EPS, "n=" + n);
      }
    }
  }

  @Test
  void symmetryInterchangeablePlayersGetTheSame() {
    // v depends only on the coalition's size: every player is interchangeable.
    Random random = new Random(2);
    int n = 6;
    double[] bySize = new double[n + 1];
    for (int s = 1; s <= n; s++) {
      bySize[s] = random.nextInt(100);
    }
    double[] v = new double[1 << n];
    for (int mask = 0; mask < v.length; mask++) {
      v[mask] = bySize[Integer.bitCount(mask)];
    }
    double[] phi = Shapley.values(CoalitionGame.of(n, v));
    for (int i = 1; i < n; i++) {
      assertEquals(phi[0], phi[i], EPS);
    }
  }

  @Test
  void aNullPlayerGetsZero() {
    Random random = new Random(3);
    int n = 5;
    int nullPlayer = 1 << 2;
    double[] v = new double[1 << n];
    for (int mask = 1; mask < v.length; mask++) {
      // player 2 adds nothing: v(S + 2) = v(S)
      v[mask] = (mask & nullPlayer) != 0 ? v[mask & ~nullPlayer] : random.nextInt(100);
    }
    assertEquals(0, Shapley.values(CoalitionGame.of(n, v))[2], EPS);
  }

  @Test
  void additivityTheValueOfASumIsTheSumOfValues() {
    Random random = new Random(4);
    int n = 6;
    CoalitionGame a = random(n, random);
    CoalitionGame b = random(n, random);
    double[] sum = new double[1 << n];
    for (int mask = 0; mask < sum.length; mask++) {
      sum[mask] = a.value(mask) + b.value(mask);
    }
    double[] phiA = Shapley.values(a);
    double[] phiB = Shapley.values(b);
    double[] phiSum = Shapley.values(CoalitionGame.of(n, sum));
    for (int i = 0; i < n; i++) {
      assertEquals(phiA[i] + phiB[i], phiSum[i], EPS);
    }
  }

  @Test
  void weightsSumToOneOverAllOrderings() {
    for (int n = 1; n <= 20; n++) {
      double[] w = Shapley.weights(n);
      double total = 0;
      for (int s = 0; s < n; s++) {
        // C(n-1, s) coalitions of size s without a given player
        double binomial = 1;
        for (int k = 1; k <= s; k++) {
          binomial = binomial * (n - 1 - s + k) / k;
        }
        total += w[s] * binomial;
      }
      assertEquals(1.0, total, 1e-12, "n=" + n);
    }
  }

  @Test
  void malformedGamesAreRefused() {
    assertThrows(IllegalArgumentException.class, () -> CoalitionGame.of(3, new double[7]));
    assertThrows(IllegalArgumentException.class, () -> CoalitionGame.of(1, new double[] {1, 2}));
    assertThrows(IllegalArgumentException.class, () -> CoalitionGame.of(21, new double[0]));
    assertThrows(IllegalArgumentException.class, () -> CoalitionGame.of(1, new double[] {0, Double.NaN}));
  }
}
