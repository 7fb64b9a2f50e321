package org.coalition.simulator.cloudshare;

import java.util.List;
import java.util.Map;

/**
 * The experiment's outcome, one entry per scenario.
 *
 * @param traces per log: its name, total cores used and tasks per case
 */
public record TracesReport(List<TraceInfo> traces, List<ScenarioReport> scenarios, double seconds) {
  public TracesReport {
    traces = List.copyOf(traces);
    scenarios = List.copyOf(scenarios);
  }

  /** One log as the experiment used it. */
  public record TraceInfo(String name, int totalCores, String coresFrom, long tasks) {}

  /**
   * One scenario's scores (points for being strictly fairer than another algorithm in a judged
   * coalition) and mean unfairness over judged coalitions (hours of wait away from the Shapley
   * values, L1 and L2).
   *
   * @param cases (log, period) cases
   * @param judged coalitions of two or more sites judged, over all cases
   */
  public record ScenarioReport(
      int scenario, int cases, int judged, Map<String, Integer> scores, Map<String, Double> meanUnfairness,
      Map<String, Double> meanUnfairnessL2) {
    public ScenarioReport {
      scores = Map.copyOf(scores);
      meanUnfairness = Map.copyOf(meanUnfairness);
      meanUnfairnessL2 = Map.copyOf(meanUnfairnessL2);
    }
  }
}
