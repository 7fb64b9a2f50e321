package org.coalition.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code coalition bench e2e} in CI, on the testbed's three Slurm clusters (a testbed that is not up
 * fails the test, never skips it): every job is checked (COMPLETED at home with its own output,
 * one sacct record); the figures are printed as JSON ({@code [bench] e2e} lines), not asserted.
 */
@Tag("testbed") // needs testbed/up's systems: .ci/run runs it once they are up
class E2eBenchIT {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void shortJobsThroughThreeSlurmClustersEachEndOnceAtHome() throws Exception {
    E2eBenchmark.Result r = run("reuse", 120, 4, Duration.ofSeconds(10), Duration.ofMinutes(5), true, false, E2eBenchmark.Probe.NONE);
    assertEquals(List.of(), r.problems());
    assertEquals(120, r.ranAt().values().stream().mapToInt(Integer::intValue).sum(), "every job ran at south or west: " + r.ranAt());
    assertTrue(r.jobsPerPilot() > 1, "pilots ran more than one job each: " + r.jobsPerPilot());
    assertTrue(r.eviction().evictions() > 0, "west gave cores back to its users: " + r.eviction());
  }

  /**
   * With one job per pilot, as before reuse; here Slurm's own preemption, not the daemon, gives
   * west's cores back. At the end north's dashboard is opened in headless Chromium
   * ({@link DashboardCheck}; screenshots in {@code target/dashboard}).
   */
  @Test
  void withOneJobPerPilotAndSlurmsOwnPreemption() throws Exception {
    E2eBenchmark.Result r = run("one job per pilot", 30, 1, Duration.ZERO, Duration.ZERO, true, true,
        new DashboardCheck(Path.of("target", "dashboard").toAbsolutePath()));
    assertEquals(List.of(), r.problems());
    assertEquals(1.0, r.jobsPerPilot(), "each pilot ran one job");
    assertTrue(r.eviction().evictions() > 0, "Slurm preempted north's runs at west for its users: " + r.eviction());
  }

  private static E2eBenchmark.Result run(String name, int jobs, double rate, Duration idleExit, Duration extraTime, boolean eviction,
      boolean slurmPreempts, E2eBenchmark.Probe atEnd) throws Exception {
    Path logs = Path.of("target", "bench-e2e", name.replace(' ', '-'));
    if (Files.exists(logs)) {
      try (Stream<Path> old = Files.walk(logs)) {
        old.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete()); // a run's logs and spools are its own
      }
    }
    Files.createDirectories(logs);
    E2eBenchmark.Result r = new E2eBenchmark(new E2eBenchmark.Config(jobs, rate, 2, 600, 1, 1, 7500,
        new TestbedFederation.Settings(0.7, Duration.ofSeconds(1), 4, idleExit, extraTime, slurmPreempts), Duration.ofMinutes(10),
        BenchJars.cliJar(), logs.toAbsolutePath(), eviction, atEnd)).run(done -> {});
    System.out.println("[bench] e2e, " + name + ": " + JSON.writeValueAsString(r));
    return r;
  }
}
