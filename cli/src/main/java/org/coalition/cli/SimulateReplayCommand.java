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
    ReplayResult result = new ReplayModel(log, sites, total, policy, common.seed).run();
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
      BarChart chart = new BarChart("Mean wait per site, " + result.trace() + ", " + result.policy(), "hours");
      result.sites().forEach(s -> chart.bar("site " + s.site(), s.meanWait() / 3600));
      chart.write(common.plot);
      err.println("plot written to " + common.plot);
    }
    return ExitCodes.OK;
  }
}
