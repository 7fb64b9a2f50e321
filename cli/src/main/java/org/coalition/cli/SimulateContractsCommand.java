package org.coalition.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.coalition.simulator.contracts.ContractsConfig;
import org.coalition.simulator.contracts.ContractsModel;
import org.coalition.simulator.contracts.ContractsResult;
import org.coalition.simulator.report.BarChart;
import org.coalition.simulator.swf.SwfReader;
import org.coalition.simulator.swf.SwfTrace;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code coalition simulate contracts}: capacity contracts on a log (docs/decisions/0020, "What-if"). */
@Command(
    name = "contracts",
    mixinStandardHelpOptions = true,
    header = "Capacity contracts on a log: each site's wait alone, in one global pool, and trading blocks a day ahead.",
    description = {
      "Sites replay one SWF log, site i shifted by i x 24 h / sites, each on the log's cores (conservative",
      "backfilling). Compared: every site alone; one global pool of every core; day-ahead contracts, where each",
      "site bids for each slot from its own schedule of the same slot the day before (buy a block if its jobs",
      "waited, sell one if a block was idle), cleared by the daemons' own market rules. The model has no",
      "randomness: the same options give the same result."
    })
final class SimulateContractsCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;
  @CommandLine.Mixin SimulateCommand.Reporting common = new SimulateCommand.Reporting();

  @Option(names = "--trace", required = true, paramLabel = "FILE", description = "An SWF log (plain or gzip).")
  Path trace;

  @Option(names = "--sites", defaultValue = "25", description = "Number of sites (default ${DEFAULT-VALUE}, as in the contracts paper).")
  int sites;

  @Option(names = "--days", defaultValue = "14", description = "Days replayed from the log's first job (default ${DEFAULT-VALUE}).")
  int days;

  @Option(names = "--cores", defaultValue = "0", description = "Each site's cores; 0 (default) for the log's MaxProcs header.")
  int cores;

  @Option(names = "--block-cores", defaultValue = "0", description = "Cores of the block traded; 0 (default) for an eighth of a site's.")
  int blockCores;

  @Option(names = "--slot-hours", defaultValue = "1", description = "A slot's length in hours, a divisor of 24 (default ${DEFAULT-VALUE}).")
  int slotHours;

  @Option(names = "--misreport", defaultValue = "1",
      description = "Factor site 0 applies to its bids, to see what misreporting gains (default ${DEFAULT-VALUE}: truthful).")
  double misreport;

  /** What {@code --json} prints: the settings and the result. */
  record Report(String trace, ContractsConfig config, ContractsResult result, long worseOffGlobal, long worseOffContracts) {}

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
    int each = cores;
    if (each == 0) {
      each = log.headerNumber("MaxProcs").map(Long::intValue).orElseThrow(() -> new IllegalArgumentException(
          trace + " has no MaxProcs header: pass --cores N (each site's cores)"));
    }
    ContractsConfig config = new ContractsConfig(sites, days, each, blockCores == 0 ? Math.max(1, each / 8) : blockCores, misreport,
        slotHours);
    ContractsResult result = new ContractsModel(config, log).run();
    String name = trace.getFileName().toString();
    PrintWriter out = spec.commandLine().getOut();
    if (common.json) {
      Output.json(out, new Report(name, config, result, result.worseOffGlobal(), result.worseOffContracts()));
    } else {
      out.printf("%s: %d sites, %d days, %d cores each, blocks of %d cores, %d h slots: %,d contracts%n", name, sites, days, each,
          config.blockCores(), slotHours, result.contracts());
      List<List<String>> rows = new ArrayList<>();
      for (ContractsResult.Site s : result.perSite()) {
        rows.add(List.of(Integer.toString(s.site()), Integer.toString(s.jobs()), Output.number(s.waitAlone() / 3600, 2),
            Output.number(s.waitGlobal() / 3600, 2), Output.number(s.waitContracts() / 3600, 2), Integer.toString(s.bought()),
            Integer.toString(s.sold()), Output.number(s.credit(), 0)));
      }
      Output.table(out, List.of("site", "jobs", "wait alone (h)", "wait global pool (h)", "wait contracts (h)", "bought", "sold",
          "credit (core-s)"), rows);
      out.printf("worse off than alone (mean wait over 1.01 x alone + 1 s): %d of %d sites in the global pool, %d with contracts%n",
          result.worseOffGlobal(), sites, result.worseOffContracts());
      out.flush();
    }
    if (common.plot != null) {
      BarChart chart = new BarChart("Wait with contracts against alone, " + name, "site", "% of the wait alone",
          "Each site's mean wait (submission to start) when trading " + config.blockCores() + "-core blocks in " + slotHours
          + " h slots a day ahead, as a percentage of its wait alone (100: the same; a site that never waited alone shows 100); " + sites
          + " sites replaying " + name + " shifted by time zone, " + each + " cores each, " + days + " days. In one pool of every core "
          + result.worseOffGlobal() + " of them wait longer than alone");
      result.perSite().forEach(s -> chart.bar("site " + s.site(), s.waitAlone() > 0 ? 100 * s.waitContracts() / s.waitAlone() : 100));
      chart.write(common.plot);
      err.println("plot written to " + common.plot);
    }
    return ExitCodes.OK;
  }
}
