package org.coalition.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.DoubleConsumer;
import org.coalition.bench.DecisionLog.Decision;
import org.coalition.testbed.Command;
import org.coalition.testbed.Eventually;
import org.coalition.testbed.Instance;

/**
 * The end-to-end benchmark (issue #25): three real Slurm clusters of the testbed, north full of its
 * own work, its users' short jobs submitted with {@code sbatch} at a steady rate; each runs at south
 * or west, whose cores are idle, and is replayed at north. North's own long job holds most of its
 * memory (by default one core and 7,500 of 8,000 MiB): the users' jobs, asking for more memory than
 * is left, cannot start there; their replays (one core, 64 MiB, a second) run on the cores left,
 * one per free core at a time. (Held by cores instead, north would replay on the few cores left,
 * at most one replay a second per core.) Every stage of every job is timed from
 * the daemons' decision logs (publish, claim, finish, replay) and Slurm (ended at home), and every
 * job is checked: ended COMPLETED at north with its own output, one {@code sacct} record each.
 */
final class E2eBenchmark {
  /** Site name and testbed instance; north is the home whose jobs go out. */
  static final Map<String, String> SITES = new LinkedHashMap<>();

  static {
    SITES.put("north", "slurm22-c2");
    SITES.put("south", "slurm24-c1");
    SITES.put("west", "slurm22-c1");
  }

  /**
   * @param jobs jobs submitted at north
   * @param rate jobs submitted per second
   * @param cores each job's cores
   * @param memoryMb each job's memory (more than north leaves free, so that it goes out)
   * @param runSeconds how long each job runs
   * @param fillerCores north's cores its own long job holds
   * @param fillerMemoryMb north's memory its own long job holds
   * @param eviction whether the eviction part ({@link EvictionPhase}) follows
   * @param atEnd what looks at the federation last, while it still runs (a test's probe; {@link Probe#NONE})
   */
  record Config(int jobs, double rate, int cores, int memoryMb, double runSeconds, int fillerCores, int fillerMemoryMb,
      TestbedFederation.Settings settings, Duration timeout, Path jar, Path dir, boolean eviction, Probe atEnd) {
    /** A run with nothing looking at the federation at its end. */
    Config(int jobs, double rate, int cores, int memoryMb, double runSeconds, int fillerCores, int fillerMemoryMb,
        TestbedFederation.Settings settings, Duration timeout, Path jar, Path dir, boolean eviction) {
      this(jobs, rate, cores, memoryMb, runSeconds, fillerCores, fillerMemoryMb, settings, timeout, jar, dir, eviction, Probe.NONE);
    }
  }

  /** Looks at a running federation, its problems added to the run's. */
  interface Probe {
    Probe NONE = f -> List.of();

    List<String> look(TestbedFederation federation) throws Exception;
  }

  /**
   * What was measured, in seconds. {@code publishToStart}: from the home's publication to the claim
   * by a pilot; {@code publishToReplayed}: to the job's end at home; {@code jobsPerSecond}: jobs
   * ended at home over the time from the first publication to the last end (the fill and drain of
   * the pipeline included); {@code completionRate}: jobs ended at home per second between the first
   * end and the last (the sustained rate, as a batch system's throughput is counted);
   * {@code stages}: the median and tail of each step; {@code problems}: every check that failed
   * (empty: all held).
   */
  record Result(int jobs, double submitRate, Map<String, Integer> ranAt, Map<String, Double> publishToStart,
      Map<String, Double> publishToReplayed, double jobsPerSecond, double completionRate, Map<String, Map<String, Double>> stages,
      Map<String, Double> startOnNewPilot, Map<String, Double> startOnWaitingPilot, Map<String, Double> pilotSubmissionToFirstClaim,
      int pilotsSubmitted, int pilotsThatRan, double jobsPerPilot, List<String> problems, double seconds, String logs,
      EvictionPhase.Result eviction) {
    /** This result with more problems. */
    Result withProblems(List<String> more) {
      List<String> all = new ArrayList<>(problems);
      all.addAll(more);
      return new Result(jobs, submitRate, ranAt, publishToStart, publishToReplayed, jobsPerSecond, completionRate, stages, startOnNewPilot,
          startOnWaitingPilot, pilotSubmissionToFirstClaim, pilotsSubmitted, pilotsThatRan, jobsPerPilot, all, seconds, logs, eviction);
    }

    /** This result and the eviction part's; its problems are the result's too. */
    Result with(EvictionPhase.Result e) {
      List<String> all = new ArrayList<>(problems);
      e.problems().forEach(p -> all.add("eviction: " + p));
      return new Result(jobs, submitRate, ranAt, publishToStart, publishToReplayed, jobsPerSecond, completionRate, stages, startOnNewPilot, startOnWaitingPilot,
          pilotSubmissionToFirstClaim, pilotsSubmitted, pilotsThatRan, jobsPerPilot, all, seconds, logs, e);
    }
  }

  private final Config config;

  E2eBenchmark(Config config) {
    this.config = config;
  }

  Result run(DoubleConsumer progress) throws Exception {
    long began = System.nanoTime();
    Files.createDirectories(config.dir());
    try (TestbedFederation f = TestbedFederation.start(SITES, config.jar(), config.dir(), config.settings())) {
      Instance north = f.site("north").cluster();
      String filler = SlurmJobs.sbatch(north, "-p", north.get("partition"), "-c", Integer.toString(config.fillerCores()),
          "--mem=" + config.fillerMemoryMb() + "M", "-t", "60", "-o", "/dev/null", "--wrap", "sleep 3600");
      Eventually.waitFor("north's own long job runs", Duration.ofSeconds(60), () -> "RUNNING".equals(SlurmJobs.state(north, filler)));
      Path jobs = Files.createDirectories(north.path("jobs.dir").resolve("bench-" + System.nanoTime()));
      Files.setPosixFilePermissions(jobs, PosixFilePermissions.fromString("rwxrwxrwx"));
      Map<String, Integer> ids = new LinkedHashMap<>();
      long t0 = System.nanoTime();
      for (int i = 0; i < config.jobs(); i++) {
        long due = t0 + (long) (i / config.rate() * 1e9);
        long wait = (due - System.nanoTime()) / 1_000_000;
        if (wait > 0) {
          Thread.sleep(wait);
        }
        ids.put(SlurmJobs.sbatch(north, "-p", north.get("federated.partition"), "-c", Integer.toString(config.cores()),
            "--mem=" + config.memoryMb() + "M", "-t", "1",
            "-o", jobs + "/%j.out", "--wrap", String.format("sleep %s; echo bench job %d", config.runSeconds(), i)), i);
        progress.accept(0.5 * (i + 1) / config.jobs());
      }
      double submitRate = config.jobs() / Math.max(1e-9, (System.nanoTime() - t0) / 1e9);
      Map<String, Long> ended = SlurmJobs.firstSeen(north, ids.keySet(), SlurmJobs.ENDED::contains, config.timeout(),
          n -> progress.accept(0.5 + 0.5 * n / ids.size()));
      List<String> problems = new ArrayList<>();
      if (ended.size() < ids.size()) {
        problems.add((ids.size() - ended.size()) + " of " + ids.size() + " jobs had not ended at north after " + config.timeout());
      }
      Map<String, String> outputs = new LinkedHashMap<>();
      ids.forEach((id, i) -> outputs.put(id, "bench job " + i + "\n"));
      SlurmJobs.checkEndedOnce(north, jobs, outputs, problems);
      ended.putAll(SlurmJobs.endTimes(north, ended.keySet())); // Slurm's own end, not the poller's first sight of it
      Result r = measure(f, ids, ended, submitRate, problems, (System.nanoTime() - began) / 1e9);
      if (config.eviction()) {
        r = r.with(new EvictionPhase(f, jobs, config.memoryMb()).run(config.timeout()));
      }
      Command.of(north.tool("scancel"), filler).run();
      List<String> seen = config.atEnd().look(f);
      return seen.isEmpty() ? r : r.withProblems(seen);
    }
  }

  private Result measure(TestbedFederation f, Map<String, Integer> ids, Map<String, Long> ended, double submitRate, List<String> problems,
      double seconds) throws IOException {
    Map<String, Decision> published = new HashMap<>();
    Map<String, Decision> claimed = new HashMap<>();
    Map<String, Decision> finished = new HashMap<>();
    Map<String, Decision> replayed = new HashMap<>();
    Map<String, Decision> pilots = new HashMap<>();
    Map<String, Integer> claimsOf = new HashMap<>();
    for (TestbedFederation.Site s : f.sites()) {
      for (Decision d : DecisionLog.read(s.log())) {
        switch (d.kind()) {
          case "publish" -> published.putIfAbsent(d.job(), d);
          case "claim" -> {
            claimed.put(d.job(), d); // the last claim: the run that counted
            claimsOf.merge(d.pilot(), 1, Integer::sum);
          }
          case "finish" -> finished.put(d.job(), d);
          case "replay" -> replayed.put(d.job(), d);
          case "pilot" -> pilots.put(d.pilot(), d);
          default -> { }
        }
      }
    }
    Map<String, Integer> ranAt = new TreeMap<>();
    List<Double> toStart = new ArrayList<>();
    List<Double> toReplayed = new ArrayList<>();
    List<Double> onNew = new ArrayList<>();
    List<Double> onWaiting = new ArrayList<>();
    List<Double> firstClaim = new ArrayList<>();
    Map<String, List<Double>> stages = new LinkedHashMap<>();
    for (String stage : List.of("publish to claim", "claim to run's end", "run's end to replay", "replay to end at home")) {
      stages.put(stage, new ArrayList<>());
    }
    long first = Long.MAX_VALUE;
    long firstEnd = Long.MAX_VALUE;
    long last = 0;
    Set<String> firstJobs = new HashSet<>();
    for (String id : ids.keySet()) {
      String ref = "north/" + id;
      Decision p = published.get(ref);
      Decision c = claimed.get(ref);
      Decision e = finished.get(ref);
      Decision r = replayed.get(ref);
      Long end = ended.get(id);
      if (p == null || c == null || e == null || r == null || end == null) {
        problems.add("job " + id + " lacks a stage in the logs: published " + (p != null) + ", claimed " + (c != null) + ", finished "
            + (e != null) + ", replayed " + (r != null) + ", ended " + (end != null));
        continue;
      }
      ranAt.merge(c.site(), 1, Integer::sum);
      first = Math.min(first, p.millis());
      last = Math.max(last, end);
      firstEnd = Math.min(firstEnd, end);
      double start = (c.millis() - p.millis()) / 1e3;
      toStart.add(start);
      toReplayed.add((end - p.millis()) / 1e3);
      stages.get("publish to claim").add(start);
      stages.get("claim to run's end").add((e.millis() - c.millis()) / 1e3);
      stages.get("run's end to replay").add((r.millis() - e.millis()) / 1e3);
      stages.get("replay to end at home").add((end - r.millis()) / 1e3);
      Decision submitted = pilots.get(c.pilot());
      boolean firstOfPilot = !c.detail().contains("; its job ") && firstJobs.add(c.pilot());
      if (firstOfPilot && submitted != null && submitted.millis() >= p.millis()) {
        onNew.add(start); // its pilot was submitted after the job was published: the job waited for the batch system and a JVM
        firstClaim.add((c.millis() - submitted.millis()) / 1e3);
      } else {
        onWaiting.add(start);
      }
    }
    Map<String, Map<String, Double>> stageSummary = new LinkedHashMap<>();
    stages.forEach((k, v) -> stageSummary.put(k, Percentiles.summary(v)));
    int ran = claimsOf.size();
    double jobsPerSecond = last > first ? hundredths(toReplayed.size() / ((last - first) / 1e3)) : 0;
    double completionRate = last > firstEnd ? hundredths((toReplayed.size() - 1) / ((last - firstEnd) / 1e3)) : 0;
    return new Result(ids.size(), Percentiles.round(submitRate), ranAt, Percentiles.summary(toStart), Percentiles.summary(toReplayed),
        jobsPerSecond, completionRate, stageSummary, Percentiles.summary(onNew), Percentiles.summary(onWaiting), Percentiles.summary(firstClaim), pilots.size(),
        ran, ran == 0 ? 0 : Percentiles.round(claimsOf.values().stream().mapToInt(Integer::intValue).sum() / (double) ran), problems,
        Percentiles.round(seconds), config.dir().toString(), null);
  }

  private static double hundredths(double v) {
    return Math.round(v * 100) / 100.0;
  }
}
