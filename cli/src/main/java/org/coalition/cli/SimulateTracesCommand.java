package org.coalition.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.coalition.policy.fairness.PolicyName;
import org.coalition.simulator.cloudshare.Scenario;
import org.coalition.simulator.cloudshare.TracesConfig;
import org.coalition.simulator.cloudshare.TracesExperiment;
import org.coalition.simulator.cloudshare.TracesReport;
import org.coalition.simulator.report.BarChart;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code coalition simulate traces}: the CloudShare paper's fairness experiment (simulator/README.md). */
@Command(
    name = "traces",
    mixinStandardHelpOptions = true,
    header = "The CloudShare paper's experiment: which algorithm is fairest on real logs.",
    description = {
      "The CloudShare paper's experiment: random 24-hour periods of each log, jobs normalised to",
      "one-core one-hour tasks, users mapped to sites per scenario, every coalition simulated for",
      "each site's Shapley value; each algorithm scores a point per case for each other algorithm",
      "it is strictly fairer than (lower L1 distance to the Shapley values)."
    })
final class SimulateTracesCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;
  @CommandLine.Mixin SimulateCommand.Common common = new SimulateCommand.Common();

  @Option(names = "--trace", required = true, paramLabel = "FILE", description = "An SWF log (plain or gzip); repeat for several.")
  List<Path> traces;

  @Option(names = "--sites", defaultValue = "5", description = "Sites per case, 2 to 12 (default ${DEFAULT-VALUE}: 31 coalitions).")
  int sites;

  @Option(names = "--periods", defaultValue = "20", description = "Random 24-hour periods per log (default ${DEFAULT-VALUE}).")
  int periods;

  @Option(names = "--scenario", required = true, paramLabel = "1|2|3|all",
      description = "1 equal cores, 2 Zipf cores, 3 equal cores with local background users; all for the three.")
  String scenario;

  @Option(names = "--algorithms", split = ",", paramLabel = "NAME,...",
      defaultValue = "ORIG_DIRECT,REL_DIRECT,SIMPL_DIRECT,FAIRSHARE,ROUND_ROBIN",
      description = "Algorithms to compare (default ${DEFAULT-VALUE}).")
  List<PolicyName> algorithms;

  @Option(names = "--cores", defaultValue = "0", description = "Cores of the whole federation; 0 (default) for each log's own: "
      + "its MaxProcs header, else the most processors its jobs held at once.")
  int cores;

  @Option(names = "--threads", description = "Cases evaluated in parallel (default: the machine's cores).")
  Integer threads;

  @Override
  public Integer call() throws Exception {
    List<Scenario> scenarios = new ArrayList<>();
    if (scenario.equalsIgnoreCase("all")) {
      scenarios.addAll(List.of(Scenario.values()));
    } else {
      try {
        scenarios.add(Scenario.of(Integer.parseInt(scenario.trim())));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("--scenario must be 1, 2, 3 or all, was '" + scenario + "'");
      }
    }
    TracesConfig config = new TracesConfig(traces, sites, periods, scenarios, algorithms, common.seed,
        threads == null ? Runtime.getRuntime().availableProcessors() : threads, cores);
    if (common.plot != null) {
      BarChart.checkTarget(common.plot);
    }
    TracesReport report = TracesExperiment.run(config,
        new ProgressBar(spec.commandLine().getErr(), "cases evaluated", !common.noProgress));
    PrintWriter out = spec.commandLine().getOut();
    if (common.json) {
      Output.json(out, scenarios.size() == 1 ? json(report, report.scenarios().get(0))
          : new ScenariosJson(report.scenarios().stream().map(s -> json(report, s)).toList()));
    } else {
      print(out, report);
    }
    if (common.plot != null) {
      TracesReport.ScenarioReport first = report.scenarios().get(0);
      BarChart chart = new BarChart("Fairness scores, scenario " + first.scenario() + " (" + first.cases() + " cases)", "algorithm",
          "points", "Each coalition of two or more sites is scheduled by every algorithm and judged against its own Shapley values; an"
          + " algorithm scores a point for each other algorithm it is strictly fairer than in a coalition (CloudShare's experiment, "
          + first.judged() + " coalitions judged)");
      first.scores().forEach((name, points) -> chart.bar(name, points));
      chart.write(common.plot);
      spec.commandLine().getErr().println("plot of scenario " + first.scenario() + " written to " + common.plot);
    }
    return ExitCodes.OK;
  }

  /** One scenario as {@code --json} writes it: the report's figures and the options of the run. */
  record ScenarioJson(int scenario, int cases, int judgedCoalitions, Map<String, Integer> scores, Map<String, Double> meanUnfairness,
      Map<String, Double> meanUnfairnessL2, int sites, int periods, List<TracesReport.TraceInfo> traces, double seconds) {}

  /** The scenarios of a run with more than one, under {@code "scenarios"}. */
  record ScenariosJson(List<ScenarioJson> scenarios) {}

  private ScenarioJson json(TracesReport report, TracesReport.ScenarioReport s) {
    return new ScenarioJson(s.scenario(), s.cases(), s.judged(), ordered(s.scores()), ordered(s.meanUnfairness()),
        ordered(s.meanUnfairnessL2()), sites, periods, report.traces(), report.seconds());
  }

  private <V> Map<String, V> ordered(Map<String, V> values) {
    Map<String, V> m = new LinkedHashMap<>();
    for (PolicyName a : algorithms) {
      m.put(a.name(), values.get(a.name()));
    }
    return m;
  }

  private void print(PrintWriter out, TracesReport report) {
    for (TracesReport.TraceInfo t : report.traces()) {
      out.printf("%s: %d cores (%s), %,d tasks in all its cases%n", t.name(), t.totalCores(), t.coresFrom(), t.tasks());
    }
    List<String> header = new ArrayList<>(List.of("algorithm"));
    for (TracesReport.ScenarioReport s : report.scenarios()) {
      header.add("scenario " + s.scenario() + " score");
      header.add("mean unfairness (h)");
    }
    List<List<String>> rows = new ArrayList<>();
    for (PolicyName a : algorithms) {
      List<String> row = new ArrayList<>(List.of(a.name()));
      for (TracesReport.ScenarioReport s : report.scenarios()) {
        row.add(Integer.toString(s.scores().get(a.name())));
        row.add(Output.number(s.meanUnfairness().get(a.name()), 1));
      }
      rows.add(row);
    }
    Output.table(out, header, rows);
    out.printf("%d cases per scenario (%d logs x %d periods), %d coalitions of two or more of %d sites judged in each, %.1f s%n",
        report.scenarios().get(0).cases(), report.traces().size(), periods, report.scenarios().get(0).judged()
            / Math.max(1, report.scenarios().get(0).cases()), sites, report.seconds());
    out.flush();
  }
}
