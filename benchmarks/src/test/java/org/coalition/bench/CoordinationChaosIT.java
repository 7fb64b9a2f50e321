package org.coalition.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Chaos and speed on real ZooKeeper (a 3-node in-process ensemble): four daemons run the whole
 * job lifecycle while servers restart, sessions expire and the leader's daemon is killed; then
 * without faults for the speed figures. Correctness is asserted; speed is printed ({@code [bench]}
 * lines in the CI log), not asserted, as every benchmark here.
 */
class CoordinationChaosIT {
  @Test
  void tenThousandJobsUnderFaultsEachAcceptedExactlyOnce() throws Exception {
    CoordinationBenchmark.Result r = new CoordinationBenchmark(
        new CoordinationBenchmark.Config(4, 10_000, 3, true, 8, 16, 7, Duration.ofMinutes(8)), done -> {}).run();
    System.out.printf("[chaos] %s%n", r);
    assertTrue(r.faults().getOrDefault("serverRestarts", 0) >= 3, "servers restarted: " + r.faults());
    assertTrue(r.faults().getOrDefault("sessionsExpired", 0) >= 3, "sessions expired: " + r.faults());
    assertTrue(r.faults().getOrDefault("leaderKills", 0) >= 3, "leaders killed: " + r.faults());
    assertEquals(0, r.faults().getOrDefault("faultErrors", 0), "every fault injected: " + r.faultsNotInjected());
    assertEquals(0, r.lost(), "lost jobs");
    assertEquals(0, r.duplicateResults(), "duplicate results");
    assertEquals(10_000, r.acceptedOnce(), "accepted exactly once");
    assertTrue(r.ledgerConsistent(), r.ledgerCheck());
    assertTrue(r.cancelledStarts() >= r.duplicateStarts(), "every duplicate start cancelled: " + r);
  }

  @Test
  void withoutFaultsFourDaemonsOnThreeServers() throws Exception {
    CoordinationBenchmark.Result r = new CoordinationBenchmark(
        new CoordinationBenchmark.Config(4, 3_000, 3, false, 8, 16, 1, Duration.ofMinutes(5)), done -> {}).run();
    System.out.printf("[bench] coordination, 4 daemons, 3 servers, no faults: %.1f lifecycles/s, raw writes %.1f/s (ratio %.3f), "
        + "claim latency p50 %.1f ms p99 %.1f ms%n", r.lifecyclesPerSecond(), r.rawWritesPerSecond(),
        r.lifecyclesPerSecond() / r.rawWritesPerSecond(), r.claimLatencyMs().get("p50"), r.claimLatencyMs().get("p99"));
    assertEquals(0, r.lost());
    assertEquals(0, r.duplicateResults());
    assertEquals(0, r.duplicateStarts(), "without faults no job starts twice");
    assertTrue(r.ledgerConsistent(), r.ledgerCheck());
  }
}
