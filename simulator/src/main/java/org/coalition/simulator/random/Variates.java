package org.coalition.simulator.random;

import java.util.SplittableRandom;

/**
 * Exponential and gamma variates from one seeded {@link SplittableRandom}, so a run is
 * reproducible from its seed. Gamma uses Marsaglia and Tsang's method (shape >= 1, with the usual
 * boost for shape < 1); {@code scale} is the gamma's beta, so the mean is {@code shape * scale}.
 */
public final class Variates {
  private final SplittableRandom random;

  public Variates(long seed) {
    this.random = new SplittableRandom(seed);
  }

  private Variates(SplittableRandom random) {
    this.random = random;
  }

  /** An independent stream, e.g. one per site. */
  public Variates split() {
    return new Variates(random.split());
  }

  /** A seed for a new stream, so that several runs can start from the same one. */
  public long nextSeed() {
    return random.nextLong();
  }

  /** Uniform in {@code [0, bound)}. */
  public int uniform(int bound) {
    return random.nextInt(bound);
  }

  /** Uniform in {@code [0, 1)}. */
  public double uniform() {
    return random.nextDouble();
  }

  /** Exponential with the given rate (mean 1 / rate). */
  public double exponential(double rate) {
    return -Math.log(1 - random.nextDouble()) / rate;
  }

  public double gamma(double shape, double scale) {
    if (!(shape > 0) || !(scale > 0)) {
      throw new IllegalArgumentException("gamma needs shape > 0 and scale > 0, got " + shape + ", " + scale);
    }
    if (shape < 1) {
      // Gamma(a) = Gamma(a + 1) * U^(1/a)
      return gamma(shape + 1, scale) * Math.pow(random.nextDouble(), 1 / shape);
    }
    double d = shape - 1.0 / 3;
    double c = 1 / Math.sqrt(9 * d);
    while (true) {
      double x;
      double v;
      do {
        x = normal();
        v = 1 + c * x;
      } while (v <= 0);
      v = v * v * v;
      double u = random.nextDouble();
      if (u < 1 - 0.0331 * x * x * x * x || Math.log(u) < 0.5 * x * x + d * (1 - v + Math.log(v))) {
        return d * v * scale;
      }
    }
  }

  /** Standard normal (Marsaglia's polar method). */
  private double normal() {
    double u;
    double v;
    double s;
    do {
      u = 2 * random.nextDouble() - 1;
      v = 2 * random.nextDouble() - 1;
      s = u * u + v * v;
    } while (s >= 1 || s == 0);
    return u * Math.sqrt(-2 * Math.log(s) / s);
  }
}
