package org.coalition.daemon.base;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

/**
 * The broker's timings as Prometheus histograms (the Prometheus Java client): how long observing
 * the batch system takes, how long each step of a round takes, how long a pilot's claim takes,
 * and how long a foreign job waited from its publication to its start here; and counts of what
 * was contained: results refused, steps failed. Registered into the API's registry by
 * {@link #registerInto}.
 */
public final class BrokerMetrics {
  private final String site;
  private final Histogram observation = Histogram.builder().name("coalition_observation_seconds")
      .help("Time to observe the local batch system (queue, cores, pilots), seconds.").labelNames("site").classicOnly()
      .classicUpperBounds(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30).build();
  private final Histogram claim = Histogram.builder().name("coalition_claim_latency_seconds")
      .help("Time from a pilot's request for work to its job claimed and started in ZooKeeper, seconds.").labelNames("site").classicOnly()
      .classicUpperBounds(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5).build();
  private final Histogram publishToStart = Histogram.builder().name("coalition_publish_to_start_seconds")
      .help("Time from a foreign job's publication to its start at this site, on the federation clock, seconds.").labelNames("site")
      .classicOnly().classicUpperBounds(1, 2, 5, 10, 20, 30, 60, 120, 300, 600, 1800, 3600).build();

  private final Histogram steps = Histogram.builder().name("coalition_round_step_seconds")
      .help("Time each step of the broker's round took (allowances, home round, results, pilots round, eviction, pilot submission, status), seconds.")
      .labelNames("site", "step").classicOnly().classicUpperBounds(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30).build();

  private final Counter rejected = Counter.builder().name("coalition_rejected_results_total")
      .help("Results of this site's jobs refused by the home's checks (times, time limit, output address), by executor and reason; "
          + "each job went back to the queue.").labelNames("site", "executor", "reason").build();
  private final Counter stepFailures = Counter.builder().name("coalition_round_step_failures_total")
      .help("Steps of the broker's round that failed and were skipped (the rest of the round went on), by step.")
      .labelNames("site", "step").build();

  public BrokerMetrics(String site) {
    this.site = site;
    // known from the start: scraped with zero counts before the first observation
    for (Histogram h : new Histogram[] {observation, claim, publishToStart}) {
      h.initLabelValues(site);
    }
  }

  public void observed(double seconds) {
    observation.labelValues(site).observe(seconds);
  }

  public void claimed(double claimSeconds, double waitedSeconds) {
    claim.labelValues(site).observe(claimSeconds);
    publishToStart.labelValues(site).observe(Math.max(0, waitedSeconds));
  }

  public void stepTook(String step, double seconds) {
    steps.labelValues(site, step).observe(seconds);
  }

  public void rejected(String executor, String reason) {
    rejected.labelValues(site, executor, reason).inc();
  }

  public void stepFailed(String step) {
    stepFailures.labelValues(site, step).inc();
  }

  /** Adds the histograms to {@code registry} (the one {@code /metrics} serves). */
  public void registerInto(PrometheusRegistry registry) {
    registry.register(observation);
    registry.register(claim);
    registry.register(publishToStart);
    registry.register(steps);
    registry.register(rejected);
    registry.register(stepFailures);
  }
}
