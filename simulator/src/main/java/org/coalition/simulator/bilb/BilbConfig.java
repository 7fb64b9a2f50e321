package org.coalition.simulator.bilb;

import java.util.Objects;
import org.coalition.policy.balancing.LoadBalancer;

/**
 * One BILB-model experiment. Site 0 is the overloaded one when {@code overloaded} is set.
 *
 * @param lambda arrival rate of local jobs per site (mean time between jobs 1 / lambda)
 * @param alpha gamma shape of job sizes; {@code beta} is the gamma scale (mean size alpha * beta)
 * @param period T, the length of a round
 * @param participation every site's declared level l (the overloaded site's own in {@code overloaded})
 * @param windowStart first fraction of a round whose releases count for the score (paper: 0.2)
 * @param windowEnd end of that window (paper: 0.8)
 * @param quantum the unit of work and time, as in the paper's discrete simulator: job sizes are
 *     rounded to it (at least one unit) and releases and balancing iterations fall on its grid
 *     (transfers are fragments of any size); 0 for continuous time
 * @param learning the learning coefficient sigma of participation learning (Section 6.3), applied
 *     at the end of every round; 0 keeps every level fixed
 */
public record BilbConfig(
    int sites,
    double alpha,
    double beta,
    double lambda,
    double period,
    int rounds,
    double participation,
    Overloaded overloaded,
    LoadBalancer balancer,
    long seed,
    double windowStart,
    double windowEnd,
    double quantum,
    double learning) {

  /** The one overloaded site's workload and level. */
  public record Overloaded(double alpha, double beta, double participation) {}

  /** The most jobs a run may expect: each is kept until its round is scored, and more do not fit a few GB of heap. */
  public static final long MAX_JOBS = 20_000_000;

  public BilbConfig {
    Objects.requireNonNull(balancer, "balancer");
    require(sites >= 1 && sites <= 10_000, "--sites must be between 1 and 10000, was " + sites);
    require(alpha > 0 && beta > 0 && alpha <= 1e6 && beta <= 1e9, "--alpha must be in (0, 1e6] and --beta in (0, 1e9], were " + alpha + ", "
        + beta);
    require(lambda > 0 && lambda <= 1e6, "--lambda must be in (0, 1e6], was " + lambda);
    require(period > 0 && period <= 1e9, "--period must be in (0, 1e9], was " + period);
    require(rounds >= 1 && rounds <= 10_000_000, "--rounds must be between 1 and 10000000, was " + rounds);
    require(participation >= 0 && participation <= 1e15, "--participation must be between 0 and 1e15 (as in the site file), was "
        + participation);
    double jobs = sites * lambda * period * rounds;
    require(jobs <= MAX_JOBS, String.format("the run would have about %.3g jobs (--sites x --lambda x --period x --rounds), more than the"
        + " %,d a run holds in memory: lower --lambda, --period or --rounds", jobs, MAX_JOBS));
    require(0 <= windowStart && windowStart < windowEnd && windowEnd <= 1,
        "the scoring window must satisfy 0 <= start < end <= 1, was " + windowStart + ".." + windowEnd);
    require(quantum >= 0 && Double.isFinite(quantum), "the work quantum must be >= 0, was " + quantum);
    require(learning >= 0 && learning <= 1, "--learning must be in [0, 1] (0: fixed levels), was " + learning);
    if (overloaded != null) {
      require(overloaded.alpha() > 0 && overloaded.beta() > 0,
          "--overloaded-alpha and --overloaded-beta must be > 0, were " + overloaded.alpha() + ", " + overloaded.beta());
      require(overloaded.alpha() <= 1e6 && overloaded.beta() <= 1e9, "--overloaded-alpha must be at most 1e6 and --overloaded-beta 1e9");
      require(overloaded.participation() >= 0 && overloaded.participation() <= 1e15,
          "--overloaded-participation must be between 0 and 1e15, was " + overloaded.participation());
    }
  }

  private static void require(boolean ok, String message) {
    if (!ok) {
      throw new IllegalArgumentException(message);
    }
  }
}
