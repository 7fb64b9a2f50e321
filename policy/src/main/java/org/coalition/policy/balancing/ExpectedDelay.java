package org.coalition.policy.balancing;

/**
 * The expected delay of the next local job when a site with queue length L accepts foreign load
 * Phi, with local jobs arriving as a Poisson process of rate lambda (BILB paper, Section 3.3):
 * {@code EG = Phi + (e^{-lambda L} / lambda) (e^{-lambda Phi} - 1)}. It is 0 without foreign load,
 * grows with L towards Phi: accepting work is cheap when the local queue is short.
 */
public final class ExpectedDelay {
  private ExpectedDelay() {}

  public static double of(double foreign, double queue, double lambda) {
    if (!(foreign >= 0) || !(queue >= 0) || !(lambda > 0)) {
      throw new IllegalArgumentException(
          "need foreign >= 0, queue >= 0, lambda > 0: foreign " + foreign + ", queue " + queue + ", lambda " + lambda);
    }
    return foreign + Math.exp(-lambda * queue) / lambda * Math.expm1(-lambda * foreign);
  }
}
