package org.coalition.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.coalition.policy.fairness.PolicyName;
import org.coalition.simulator.replay.ReplayModel;
import org.coalition.simulator.replay.ReplayResult;
import org.coalition.simulator.report.BarChart;
import org.coalition.simulator.swf.SwfReader;
import org.coalition.simulator.swf.SwfTrace;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code coalition simulate replay}: one federation over a whole log. */
@Command(
    name = "replay",
    mixinStandardHelpOptions = true,
    header = "One federation over a whole log: each site's waits and the work that ran elsewhere.",
    description = {
      "One federation over a whole log: the log's cores split equally among the sites, each user",
      "belongs to one site, jobs keep their shape; free cores take waiting work the policy picks.",
      "Prints per-site waits, jobs run remotely, and the engine's wall time and events per second."
    })
final class SimulateReplayCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;
  @CommandLine.Mixin SimulateCommand.Common common = new SimulateCommand.Common();

  @Option(names = "--trace", required = true, paramLabel = "FILE", description = "An SWF log (plain or gzip).")
  Path trace;

  @Option(names = "--sites", defaultValue = "5", description = "Number of sites (default ${DEFAULT-VALUE}).")
  int sites;

  @Option(names = "--policy", defaultValue = "SIMPL_DIRECT",
      description = "ORIG_DIRECT, REL_DIRECT, SIMPL_DIRECT, FAIRSHARE or ROUND_ROBIN (default ${DEFAULT-VALUE}).")
  PolicyName policy;

  @Option(names = "--cores", defaultValue = "0", description = "Cores of the whole federation; 0 (default) for the log's MaxProcs header.")
  int cores;

  @Option(names = "--per-site", description = {"What joining does for each site: the same log with each site alone (running only its",
      "users' jobs) beside the federation: waits, flow times and the share of its work run elsewhere."})
  boolean perSite;

  /** One site alone and federated ({@code --per-site --json}). */
  record SiteComparison(int site, int cores, long jobs, Side alone, Side federated, double workElsewhere, long ranForOthers) {}

  /** One side of a comparison, in seconds. */
  record Side(double meanWait, double maxWait, double meanFlow) {}

  record Comparison(String trace, String policy, List<SiteComparison> perSite, long jobs, long clipped) {}

  @Override
  public Integer call() throws Exception {
    if (common.plot != null) {
      BarChart.checkTarget(common.plot);
    }
    PrintWriter err = spec.commandLine().getErr();
    ProgressBar progress = new ProgressBar(err, "reading " + trace.getFileName(), !common.noProgress);
    progress.accept(0);
    SwfTrace log = SwfReader.read(trace);
    progress.accept(1);
    int total = cores;
    if (total == 0) {
      total = log.headerNumber("MaxProcs").map(Long::intValue).orElseThrow(() -> new IllegalArgumentException(
          trace + " has no MaxProcs header: pass --cores N (the machine's processors)"));
    }
    ReplayModel model = new ReplayModel(log, sites, total, policy, common.seed);
    ReplayResult result = model.run();
    if (perSite) {
      compare(result, model.alone().run());
      return ExitCodes.OK;
    }
    PrintWriter out = spec.commandLine().getOut();
    if (common.json) {
      Output.json(out, result); // Jackson writes the result record, with its events per second
    } else {
      out.printf("%s replayed on %d sites with %s: %,d jobs (%,d clipped to the widest site)%n",
          result.trace(), sites, result.policy(), result.jobs(), result.clipped());
      List<List<String>> rows = new ArrayList<>();
      for (ReplayResult.SiteReport s : result.sites()) {
        rows.add(List.of(Integer.toString(s.site()), Integer.toString(s.cores()), Long.toString(s.jobs()),
            Output.number(s.meanWait() / 3600, 2), Output.number(s.maxWait() / 3600, 1),
            Long.toString(s.ranRemotely()), Long.toString(s.ranForOthers())));
      }
      Output.table(out, List.of("site", "cores", "jobs", "mean wait (h)", "max wait (h)", "ran remotely", "ran for others"), rows);
      out.printf("simulated in %.2f s: %,d events, %,.0f events/s%n", result.seconds(), result.events(), result.eventsPerSecond());
      out.flush();
    }
    if (common.plot != null) {
      BarChart chart = new BarChart("Mean wait per site, " + result.trace() + ", " + result.policy(), "site", "hours",
          "The mean wait, from submission to start, of each site's users' jobs, " + result.trace() + " replayed on " + sites
          + " sites that split its " + total + " cores (users assigned to sites at random, seed " + common.seed + ")");
      result.sites().forEach(s -> chart.bar("site " + s.site(), s.meanWait() / 3600));
      chart.write(common.plot);
      err.println("plot written to " + common.plot);
    }
    return ExitCodes.OK;
  }

  /** {@code --per-site}: each site alone beside the federation, as a table (or JSON) and a plot of mean flow times. */
  private void compare(ReplayResult federated, ReplayResult alone) throws Exception {
    List<SiteComparison> rows = new ArrayList<>();
    for (int i = 0; i < federated.sites().size(); i++) {
      ReplayResult.SiteReport f = federated.sites().get(i);
      ReplayResult.SiteReport a = alone.sites().get(i);
      rows.add(new SiteComparison(f.site(), f.cores(), f.jobs(), new Side(a.meanWait(), a.maxWait(), a.meanFlow()),
          new Side(f.meanWait(), f.maxWait(), f.meanFlow()), f.workElsewhere(), f.ranForOthers()));
    }
    PrintWriter out = spec.commandLine().getOut();
    if (common.json) {
      Output.json(out, new Comparison(federated.trace(), federated.policy(), rows, federated.jobs(), federated.clipped()));
    } else {
      out.printf("%s on %d sites, each alone and federated with %s: %,d jobs (%,d clipped to the widest site)%n",
          federated.trace(), sites, federated.policy(), federated.jobs(), federated.clipped());
      List<List<String>> table = new ArrayList<>();
      long better = 0;
      for (SiteComparison c : rows) {
        better += c.federated().meanFlow() < c.alone().meanFlow() ? 1 : 0;
        table.add(List.of(Integer.toString(c.site()), Integer.toString(c.cores()), Long.toString(c.jobs()),
            Output.number(c.alone().meanWait() / 3600, 2), Output.number(c.federated().meanWait() / 3600, 2),
            Output.number(c.alone().meanFlow() / 3600, 2), Output.number(c.federated().meanFlow() / 3600, 2),
            Output.number(100 * c.workElsewhere(), 1) + "%", Long.toString(c.ranForOthers())));
      }
      Output.table(out, List.of("site", "cores", "jobs", "wait alone (h)", "wait federated (h)", "flow alone (h)", "flow federated (h)",
          "its work run elsewhere", "ran for others"), table);
      out.printf("federated, %d of %d sites' jobs finish sooner on average (flow time: wait and run)%n", better, rows.size());
      out.flush();
    }
    if (common.plot != null) {
      BarChart chart = new BarChart("Mean flow time per site, alone and federated, " + federated.trace() + ", " + federated.policy(), "site",
          "hours", "The mean flow time (wait and run) of each site's users' jobs, with the site alone (its users' jobs on its own cores)"
          + " and in the federation; the same log, sites and users (" + sites + " sites, seed " + common.seed + ")");
      rows.forEach(c -> chart.bar("site " + c.site() + " alone", c.alone().meanFlow() / 3600)
          .bar("site " + c.site() + " federated", c.federated().meanFlow() / 3600));
      chart.write(common.plot);
      spec.commandLine().getErr().println("plot written to " + common.plot);
    }
  }
}
