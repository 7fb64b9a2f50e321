package org.coalition.simulator.cloudshare;

import java.nio.file.Path;
import java.util.List;
import org.coalition.policy.fairness.PolicyName;

/**
 * The CloudShare experiment over logs: {@code periods} random 24-hour periods of each log, each
 * turned into a case per scenario.
 *
 * @param totalCores the cores of the whole federation, or 0 for each log's own (its MaxProcs
 *     header, else the most processors its jobs held at once)
 * @param threads cases evaluated in parallel
 */
public record TracesConfig(
    List<Path> traces,
    int sites,
    int periods,
    List<Scenario> scenarios,
    List<PolicyName> algorithms,
    long seed,
    int threads,
    int totalCores) {
  public TracesConfig {
    traces = List.copyOf(traces);
    scenarios = List.copyOf(scenarios);
    algorithms = List.copyOf(algorithms);
    require(!traces.isEmpty(), "give at least one --trace");
    require(sites >= 2 && sites <= 12, "--sites must be between 2 and 12 (2^N - 1 coalitions are simulated per case), was " + sites);
    require(periods >= 1, "--periods must be >= 1, was " + periods);
    require(!scenarios.isEmpty(), "give at least one --scenario");
    require(algorithms.size() >= 2, "--algorithms needs at least two algorithms to compare, was " + algorithms);
    require(algorithms.stream().distinct().count() == algorithms.size(), "--algorithms names one twice: " + algorithms);
    require(threads >= 1, "--threads must be >= 1, was " + threads);
    require(totalCores >= 0, "--cores must be >= 0 (0: each log's own), was " + totalCores);
  }

  private static void require(boolean ok, String message) {
    if (!ok) {
      throw new IllegalArgumentException(message);
    }
  }
}
