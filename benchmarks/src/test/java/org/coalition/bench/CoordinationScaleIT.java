package org.coalition.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The scale model (docs/coordination.md, "Scale") in CI, for 4 and 16 sites: one claiming thread
 * and four jobs in flight per site, 3 servers. The figures are printed ({@code [bench] scale}
 * lines), not asserted; the outcome is checked as in every coordination run. 64 sites take about
 * five minutes here and are run by hand ({@code bench coordination --daemons 64 --workers 1
 * --in-flight 4}).
 */
class CoordinationScaleIT {
  @ParameterizedTest
  @ValueSource(ints = {4, 16})
  void sitesOfOneThreadEach(int sites) throws Exception {
    CoordinationBenchmark.Result r = new CoordinationBenchmark(
        new CoordinationBenchmark.Config(sites, 2_000, 3, false, 1, 4, 1, Duration.ofMinutes(5)), done -> {}).run();
    System.out.printf("[bench] scale, %d sites of one thread, 4 jobs in flight each, 3 servers: %.1f lifecycles/s (%.0f site-lifecycles/s),"
        + " raw writes %.1f/s, claim latency p50 %.1f ms p99 %.1f ms, %.2f claims lost per job%n", sites, r.lifecyclesPerSecond(),
        r.lifecyclesPerSecond() * sites, r.rawWritesPerSecond(), r.claimLatencyMs().get("p50"), r.claimLatencyMs().get("p99"),
        r.claimsLost() / (double) r.jobs());
    assertEquals(0, r.lost(), "lost jobs");
    assertEquals(0, r.duplicateResults(), "duplicate results");
    assertEquals(2_000, r.acceptedOnce(), "accepted exactly once");
    assertTrue(r.ledgerConsistent(), r.ledgerCheck());
  }
}
