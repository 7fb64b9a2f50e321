package org.coalition.simulator.random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.function.DoubleSupplier;
import org.junit.jupiter.api.Test;

class VariatesTest {
  private static double[] moments(DoubleSupplier sample, int n) {
    double sum = 0;
    double squares = 0;
    for (int i = 0; i < n; i++) {
      double x = sample.getAsDouble();
      sum += x;
      squares += x * x;
    }
    double mean = sum / n;
    return new double[] {mean, squares / n - mean * mean};
  }

  @Test
  void gammaHasMeanShapeTimesScaleAndVarianceShapeTimesScaleSquared() {
    Variates v = new Variates(1);
    for (double[] p : new double[][] {{2, 2}, {3, 3}, {1, 1}, {0.5, 2}}) {
      double[] m = moments(() -> v.gamma(p[0], p[1]), 400_000);
      assertEquals(p[0] * p[1], m[0], 0.02 * p[0] * p[1], "mean");
      assertEquals(p[0] * p[1] * p[1], m[1], 0.04 * p[0] * p[1] * p[1], "variance");
    }
  }

  @Test
  void exponentialHasMeanOneOverRate() {
    Variates v = new Variates(2);
    double[] m = moments(() -> v.exponential(0.2), 400_000);
    assertEquals(5, m[0], 0.05);
    assertEquals(25, m[1], 0.5);
  }

  @Test
  void sameSeedSameStream() {
    Variates a = new Variates(42);
    Variates b = new Variates(42);
    for (int i = 0; i < 100; i++) {
      assertEquals(a.gamma(2, 2), b.gamma(2, 2));
    }
  }

  @Test
  void badParametersAreRefused() {
    assertThrows(IllegalArgumentException.class, () -> new Variates(1).gamma(0, 1));
  }
}
