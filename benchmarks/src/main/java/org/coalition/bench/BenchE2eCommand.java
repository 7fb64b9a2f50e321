package org.coalition.bench;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.coalition.cli.ExitCodes;
import org.coalition.cli.Output;
import org.coalition.cli.ProgressBar;
import org.coalition.testbed.TestbedNotUpException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code coalition bench e2e}: short jobs through three real Slurm clusters of the testbed, timed stage by stage. */
@Command(
    name = "e2e",
    mixinStandardHelpOptions = true,
    header = "Short jobs through the testbed's three real Slurm clusters, timed stage by stage.",
    description = {
      "Federates the testbed's three Slurm clusters (north slurm22-c2 with slurmdbd, south slurm24-c1, west slurm22-c1; bring them up",
      "with testbed/up slurmdbd:c2 slurm22 slurm22:c2 slurm24) through a 3-server ZooKeeper ensemble and one daemon each, fills",
      "north with its own long job, submits short jobs there with sbatch at a steady rate and times each from its publication",
      "to its start elsewhere and to its end at home, stage by stage, from the daemons' decision logs and Slurm. Every job is",
      "checked: COMPLETED at north with its own output, one sacct record. Exit 0 when every check holds, 1 when one fails,",
      "3 when the testbed is not up."
    })
final class BenchE2eCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--jobs", defaultValue = "120", description = "Jobs submitted at north (default ${DEFAULT-VALUE}).")
  int jobs;

  @Option(names = "--rate", defaultValue = "4", description = "Jobs submitted per second (default ${DEFAULT-VALUE}).")
  double rate;

  @Option(names = "--cores", defaultValue = "2", description = "Cores of each job (default ${DEFAULT-VALUE}).")
  int cores;

  @Option(names = "--mem", defaultValue = "600", paramLabel = "MB",
      description = "Memory of each job (default ${DEFAULT-VALUE} MB; more than north leaves free, so that it goes out).")
  int memoryMb;

  @Option(names = "--run", defaultValue = "1", paramLabel = "SECONDS", description = "How long each job runs (default ${DEFAULT-VALUE} s).")
  double run;

  @Option(names = "--filler-cores", defaultValue = "1", description = "North's cores its own long job holds (default ${DEFAULT-VALUE} of 8).")
  int fillerCores;

  @Option(names = "--filler-mem", defaultValue = "7500", paramLabel = "MB",
      description = "North's memory its own long job holds (default ${DEFAULT-VALUE} of 8000 MB).")
  int fillerMemoryMb;

  @Option(names = "--idle-exit", defaultValue = "10s", paramLabel = "DURATION",
      description = "The sites' pilots.idle-exit (default ${DEFAULT-VALUE}; 0s: one job per pilot, as before reuse).")
  Duration idleExit;

  @Option(names = "--extra-time", defaultValue = "5m", paramLabel = "DURATION", description = "The sites' pilots.extra-time (default ${DEFAULT-VALUE}).")
  Duration extraTime;

  @Option(names = "--max-pending", defaultValue = "4", description = "The sites' pilots.max-pending (default ${DEFAULT-VALUE}).")
  int maxPending;

  @Option(names = "--exposure-threshold", defaultValue = "0.7", description = "The sites' sharing.exposure-threshold (default ${DEFAULT-VALUE}).")
  double exposureThreshold;

  @Option(names = "--publish-after", defaultValue = "1s", paramLabel = "DURATION", description = "North's sharing.publish-after (default ${DEFAULT-VALUE}).")
  Duration publishAfter;

  @Option(names = "--no-eviction", description = "Skip the eviction part (west full of north's runs, then its own users' jobs).")
  boolean noEviction;

  @Option(names = "--eviction", defaultValue = "daemon", paramLabel = "daemon|batch-system",
      description = {"Who takes west's cores back (default ${DEFAULT-VALUE}): its daemon, the homes of lowest priority first, or Slurm's own",
          "preemption of the pilots' partition (the sites' sharing.eviction)."})
  String eviction;

  @Option(names = "--jar", paramLabel = "FILE", description = "The coalition.jar the daemons and pilots run (default: cli/target/coalition.jar of this tree).")
  Path jar;

  @Option(names = "--logs", paramLabel = "DIR", description = "Where the site files and the daemons' logs go (default: a new folder in /tmp).")
  Path logs;

  @Option(names = "--timeout", defaultValue = "15m", paramLabel = "DURATION",
      description = "Give up waiting for the jobs after this long (default ${DEFAULT-VALUE}).")
  Duration timeout;

  @CommandLine.Mixin BenchOutput output = new BenchOutput();

  @Override
  public Integer call() throws Exception {
    if (jobs < 1 || jobs > 100_000 || !(rate > 0 && rate <= 100) || cores < 1 || cores > 8 || !(run >= 0 && run <= 600)
        || fillerCores < 1 || fillerCores > 8 || memoryMb < 1 || memoryMb > 8000 || fillerMemoryMb < 1 || fillerMemoryMb > 8000) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--jobs must be 1-100000, --rate in (0, 100], --cores and --filler-cores"
          + " 1-8 (a testbed node has 8), --mem and --filler-mem 1-8000 MB (it has 8000), --run 0-600 s");
    }
    if (!eviction.equals("daemon") && !eviction.equals("batch-system")) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--eviction must be daemon or batch-system, was '" + eviction + "'");
    }
    Path jarFile = jar != null ? jar : BenchJars.cliJar();
    if (!Files.isRegularFile(jarFile)) {
      throw new CommandLine.ParameterException(spec.commandLine(), jarFile + " is not there: build it with 'mvn -pl cli -am package', or"
          + " name another with --jar");
    }
    if (logs != null && Files.isDirectory(logs)) {
      try (var entries = Files.list(logs)) {
        if (entries.findAny().isPresent()) {
          throw new CommandLine.ParameterException(spec.commandLine(), "--logs " + logs + " is not empty: name a new folder (a run's logs and"
              + " spools are its own)");
        }
      }
    }
    Path dir = logs != null ? Files.createDirectories(logs) : Files.createTempDirectory("coalition-bench-e2e-");
    PrintWriter err = spec.commandLine().getErr();
    ProgressBar progress = new ProgressBar(err, "jobs", !output.noProgress);
    E2eBenchmark.Result r;
    try {
      r = new E2eBenchmark(new E2eBenchmark.Config(jobs, rate, cores, memoryMb, run, fillerCores, fillerMemoryMb,
          new TestbedFederation.Settings(exposureThreshold, publishAfter, maxPending, idleExit, extraTime, eviction.equals("batch-system")),
          timeout, jarFile.toAbsolutePath(),
          dir.toAbsolutePath(), !noEviction)).run(progress::accept);
    } catch (TestbedNotUpException e) {
      err.println("coalition bench e2e: " + e.getMessage());
      return ExitCodes.UNAVAILABLE;
    }
    PrintWriter out = spec.commandLine().getOut();
    if (output.json) {
      Output.json(out, r);
    } else {
      out.printf("%d jobs of %d cores, %d MB and %s s submitted at north at %s/s; ran at %s; %.0f s in all; logs in %s%n", r.jobs(), cores,
          memoryMb, Output.number(run, 1), Output.number(r.submitRate(), 1), r.ranAt(), r.seconds(), r.logs());
      List<List<String>> rows = new ArrayList<>();
      rows.add(row("publish to start", r.publishToStart()));
      rows.add(row("  on a pilot submitted for it", r.startOnNewPilot()));
      rows.add(row("  on a pilot already there", r.startOnWaitingPilot()));
      rows.add(row("publish to end at home", r.publishToReplayed()));
      r.stages().forEach((stage, s) -> rows.add(row("stage: " + stage, s)));
      rows.add(row("pilot submitted to its first claim", r.pilotSubmissionToFirstClaim()));
      Output.table(out, List.of("seconds", "n", "p50", "p90", "p99", "max"), rows);
      out.printf("%.2f jobs/s end to end (first publication to last end at home), %.2f jobs/s sustained (first end to last);"
          + " %d pilots submitted, %d ran jobs, %s jobs each%n", r.jobsPerSecond(), r.completionRate(),
          r.pilotsSubmitted(), r.pilotsThatRan(), Output.number(r.jobsPerPilot(), 1));
      EvictionPhase.Result e = r.eviction();
      Map<String, Double> w = e == null ? Map.of() : e.localStart();
      if (e != null) {
        out.printf("eviction by %s: west full of north's runs; %s local jobs waited p50 %s s, p99 %s s, max %s s for their cores (Slurm's"
            + " grace %s s); %d runs evicted %s, each ended once at north%n", eviction, Output.number(w.get("n"), 0), Output.number(w.get("p50"), 1),
            Output.number(w.get("p99"), 1), Output.number(w.get("max"), 1), Output.number(e.grace(), 0), e.evictions(), e.evictedJobs());
      }
      out.flush();
    }
    if (!r.problems().isEmpty()) {
      err.println("coalition: e2e check FAILED:");
      r.problems().forEach(p -> err.println("  " + p));
      return ExitCodes.INTERNAL;
    }
    return ExitCodes.OK;
  }

  private static List<String> row(String name, Map<String, Double> s) {
    return List.of(name, Output.number(s.get("n"), 0), Output.number(s.get("p50"), 1), Output.number(s.get("p90"), 1),
        Output.number(s.get("p99"), 1), Output.number(s.get("max"), 1));
  }
}
