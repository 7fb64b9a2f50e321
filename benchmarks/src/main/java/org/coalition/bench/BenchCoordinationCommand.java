package org.coalition.bench;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.coalition.cli.ExitCodes;
import org.coalition.cli.Output;
import org.coalition.cli.ProgressBar;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code coalition bench coordination}: the job lifecycle on an in-process ZooKeeper ensemble, with or without faults. */
@Command(
    name = "coordination",
    mixinStandardHelpOptions = true,
    header = "Job lifecycles per second and claim latency of D daemons on real ZooKeeper servers.",
    description = {
      "D daemons run J jobs through publish, claim, start, end and fold on real ZooKeeper servers started",
      "in this process, and check the outcome: every result accepted once, none lost, ledgers equal to the",
      "accepted results. --faults restarts servers, expires sessions and kills the leader's daemon meanwhile.",
      "Exit 0 when the checks hold, 1 when one fails."
    })
final class BenchCoordinationCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--daemons", defaultValue = "4", description = "Sites, one daemon each (default ${DEFAULT-VALUE}).")
  int daemons;

  @Option(names = "--jobs", defaultValue = "2000", description = "Jobs in all, spread over the sites (default ${DEFAULT-VALUE}).")
  int jobs;

  @Option(names = "--ensemble", defaultValue = "3", description = "ZooKeeper servers: 1 or 3 (default ${DEFAULT-VALUE}).")
  int ensemble;

  @Option(names = "--faults", description = "Restart servers, expire sessions and kill the leader during the run.")
  boolean faults;

  @Option(names = "--workers", defaultValue = "8", description = "Claiming threads per daemon (default ${DEFAULT-VALUE}).")
  int workers;

  @Option(names = "--in-flight", defaultValue = "16", description = "Published, unfinished jobs per home at most (default ${DEFAULT-VALUE}).")
  int inFlight;

  @Option(names = "--timeout", defaultValue = "10m", paramLabel = "DURATION", description = "Give up after this long (default ${DEFAULT-VALUE}).")
  Duration timeout;

  @Option(names = "--session-timeout", defaultValue = "10s", paramLabel = "DURATION",
      description = "Each site's ZooKeeper session timeout, 1s to 60s (default ${DEFAULT-VALUE}); longer for many sites on few cores.")
  Duration sessionTimeout;

  @Option(names = "--seed", defaultValue = "1", description = "Seed of the fault schedule and the workers' choices (default ${DEFAULT-VALUE}).")
  long seed;

  @CommandLine.Mixin BenchOutput output = new BenchOutput();

  @Override
  public Integer call() throws Exception {
    CoordinationBenchmark.Config config = new CoordinationBenchmark.Config(daemons, jobs, ensemble, faults, workers, inFlight, seed, timeout,
        sessionTimeout);
    PrintWriter err = spec.commandLine().getErr();
    ProgressBar progress = new ProgressBar(err, "lifecycles", !output.noProgress);
    CoordinationBenchmark.Result r = new CoordinationBenchmark(config, done -> progress.accept(done / (double) jobs)).run();
    PrintWriter out = spec.commandLine().getOut();
    if (output.json) {
      Output.json(out, r);
    } else {
      out.printf("%d daemons, %d jobs, %d-server ensemble%s: %.1f s%n", r.daemons(), r.jobs(), r.ensemble(),
          faults ? ", with faults " + r.faults() : "", r.seconds());
      List<List<String>> rows = new ArrayList<>();
      rows.add(List.of("accepted exactly once", Integer.toString(r.acceptedOnce())));
      rows.add(List.of("lost", Integer.toString(r.lost())));
      rows.add(List.of("duplicate results", Integer.toString(r.duplicateResults())));
      rows.add(List.of("duplicate starts (each cancelled)", r.duplicateStarts() + " (" + r.cancelledStarts() + " runs cancelled)"));
      rows.add(List.of("lifecycles per second", Output.number(r.lifecyclesPerSecond(), 1)));
      rows.add(List.of("raw ZooKeeper writes per second", Output.number(r.rawWritesPerSecond(), 1)));
      rows.add(List.of("claim latency p50 / p99 (ms)",
          Output.number(r.claimLatencyMs().get("p50"), 1) + " / " + Output.number(r.claimLatencyMs().get("p99"), 1)));
      rows.add(List.of("ledgers equal accepted results", r.ledgerConsistent() ? "yes" : "NO"));
      Output.table(out, List.of("figure", "value"), rows);
      out.println(r.ledgerCheck());
      out.flush();
    }
    boolean ok = r.lost() == 0 && r.duplicateResults() == 0 && r.ledgerConsistent() && r.cancelledStarts() >= r.duplicateStarts();
    if (!ok) {
      err.println("coalition: coordination check FAILED: " + r.lost() + " lost, " + r.duplicateResults() + " duplicate results, ledger "
          + (r.ledgerConsistent() ? "consistent" : "inconsistent (" + r.ledgerCheck() + ")") + ", "
          + r.duplicateStarts() + " duplicate starts against " + r.cancelledStarts() + " cancelled runs");
      return ExitCodes.INTERNAL;
    }
    return ExitCodes.OK;
  }
}
