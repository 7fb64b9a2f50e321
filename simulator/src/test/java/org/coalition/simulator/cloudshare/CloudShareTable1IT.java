package org.coalition.simulator.cloudshare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.coalition.policy.fairness.PolicyName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The CloudShare paper's Table 1 experiment in full: HPC2N, LPC-EGEE, MetaCentrum and DAS2-fs1
 * (standing in for fs0), 20 periods each, three scenarios, 31 coalitions per case run by each of
 * five algorithms, every coalition of two or more sites judged, on every core of the machine.
 * Prints the scores beside the paper's and the wall time ({@code [table1]} lines). Asserted: what
 * holds in every seed tried, ROUND_ROBIN scores lowest in every scenario. Whether SIMPL_DIRECT and
 * REL_DIRECT beat FAIRSHARE is printed for one seed (with one seed's 80 periods it holds in 10 of 12
 * scenario runs) and asserted pooled over seeds 1 to 4 (simulator/README.md), with SIMPL_DIRECT
 * highest.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CloudShareTable1IT {
  private final Map<Long, TracesReport> reports = new ConcurrentHashMap<>();
  private static final Path TRACES = Path.of(System.getProperty("coalition.traces", "../../shared/traces"));
  private static final Map<String, int[]> PAPER = Map.of(
      "ORIG_DIRECT", new int[] {3051, 3095, 2110},
      "REL_DIRECT", new int[] {3840, 3793, 2420},
      "SIMPL_DIRECT", new int[] {4061, 3955, 2415},
      "FAIRSHARE", new int[] {3108, 3436, 1621},
      "ROUND_ROBIN", new int[] {1302, 917, 871});

  @Test
  void table1() throws Exception {
    TracesReport report = run(1);
    int threads = Runtime.getRuntime().availableProcessors();
    for (TracesReport.TraceInfo t : report.traces()) {
      System.out.printf("[table1] %s: %d cores (%s), %,d tasks%n", t.name(), t.totalCores(), t.coresFrom(), t.tasks());
    }
    System.out.printf("[table1] %-13s %-22s %-22s %-22s%n", "algorithm", "scenario 1 paper/here", "scenario 2 paper/here",
        "scenario 3 paper/here");
    for (PolicyName a : PolicyName.values()) {
      StringBuilder row = new StringBuilder(String.format("[table1] %-13s", a.name()));
      for (TracesReport.ScenarioReport s : report.scenarios()) {
        row.append(String.format(" %-22s", PAPER.get(a.name())[s.scenario() - 1] + " / " + s.scores().get(a.name())
            + String.format(" (%.0f h)", s.meanUnfairness().get(a.name()))));
      }
      System.out.println(row);
    }
    System.out.printf("[bench] Table 1 experiment: %d cases x 31 coalitions x 5 algorithms (%d coalitions judged) in %.1f s on %d threads%n",
        report.scenarios().stream().mapToInt(TracesReport.ScenarioReport::cases).sum(),
        report.scenarios().stream().mapToInt(TracesReport.ScenarioReport::judged).sum(), report.seconds(), threads);
    for (TracesReport.ScenarioReport s : report.scenarios()) {
      int rr = s.scores().get("ROUND_ROBIN");
      for (PolicyName a : PolicyName.values()) {
        if (a != PolicyName.ROUND_ROBIN) {
          assertTrue(s.scores().get(a.name()) > rr, "scenario " + s.scenario() + ": ROUND_ROBIN must score lowest, " + s.scores());
        }
      }
      boolean directBeatsFairShare = s.scores().get("SIMPL_DIRECT") > s.scores().get("FAIRSHARE")
          && s.scores().get("REL_DIRECT") > s.scores().get("FAIRSHARE");
      System.out.printf("[table1] scenario %d: SIMPL_DIRECT and REL_DIRECT above FAIRSHARE: %s%n", s.scenario(), directBeatsFairShare);
    }
  }

  @Test
  void pooledOverFourSeedsTheDirectAlgorithmsBeatFairShareAndSimplDirectLeads() throws Exception {
    Map<Integer, Map<String, Integer>> pooled = new TreeMap<>();
    for (long seed = 1; seed <= 4; seed++) {
      for (TracesReport.ScenarioReport s : run(seed).scenarios()) {
        s.scores().forEach((a, score) -> pooled.computeIfAbsent(s.scenario(), k -> new TreeMap<>()).merge(a, score, Integer::sum));
      }
    }
    pooled.forEach((scenario, scores) -> System.out.printf("[table1] scenario %d pooled over seeds 1-4: %s%n", scenario, scores));
    assertEquals(3, pooled.size());
    pooled.forEach((scenario, scores) -> {
      int fairShare = scores.get("FAIRSHARE");
      assertTrue(scores.get("SIMPL_DIRECT") > fairShare && scores.get("REL_DIRECT") > fairShare,
          "scenario " + scenario + ": SIMPL_DIRECT and REL_DIRECT above FAIRSHARE, " + scores);
      for (PolicyName a : PolicyName.values()) {
        if (a != PolicyName.SIMPL_DIRECT) {
          assertTrue(scores.get("SIMPL_DIRECT") > scores.get(a.name()), "scenario " + scenario + ": SIMPL_DIRECT highest, " + scores);
        }
      }
    });
  }

  /** The experiment with one seed, run once per class (the first test to need it runs it). */
  private TracesReport run(long seed) throws Exception {
    TracesReport done = reports.get(seed);
    if (done == null) {
      List<Path> logs = List.of("HPC2N-2002-2.2-cln.swf.gz", "LPC-EGEE-2004-1.2-cln.swf.gz", "METACENTRUM-2009-2.swf.gz",
          "DAS2-fs1-2003-1.swf.gz").stream().map(TRACES::resolve).toList();
      TracesConfig config = new TracesConfig(logs, 5, 20, List.of(Scenario.values()), List.of(PolicyName.values()), seed,
          Runtime.getRuntime().availableProcessors(), 0);
      done = TracesExperiment.run(config, null);
      reports.put(seed, done);
    }
    return done;
  }
}
