package org.coalition.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.coalition.bench.DecisionLog.Decision;
import org.coalition.testbed.Command;
import org.coalition.testbed.Eventually;
import org.coalition.testbed.Instance;

/**
 * The benchmark's second part: local users take their cores back. North (full) sends long jobs
 * that fill west's cores with foreign runs; then west's own users submit jobs there. Measured:
 * each local job's wait from its submission to its start; checked: west evicted foreign runs (its
 * daemon, or Slurm's preemption of the pilots' partition where the sites say
 * {@code sharing.eviction: batch-system}), and every north job, evicted or not, ended once at north
 * with its own output.
 */
final class EvictionPhase {
  /** West's cores held by foreign runs: two jobs of four cores. */
  private static final int FOREIGN_JOBS = 2;
  private static final int FOREIGN_CORES = 4;
  private static final int LOCAL_JOBS = 3;
  private static final int LOCAL_CORES = 2;

  /**
   * What was measured: each local job's wait for its cores (seconds), the evictions west decided,
   * the jobs evicted, and every check that failed.
   */
  record Result(Map<String, Double> localStart, int evictions, List<String> evictedJobs, double grace, List<String> problems) {}

  private final TestbedFederation federation;
  private final Path jobs;
  /** The long jobs' memory: as the benchmark's jobs', more than north leaves free, so that they go out. */
  private final int memoryMb;

  EvictionPhase(TestbedFederation federation, Path jobs, int memoryMb) {
    this.federation = federation;
    this.jobs = jobs;
    this.memoryMb = memoryMb;
  }

  Result run(Duration timeout) throws IOException, InterruptedException {
    Instance north = federation.site("north").cluster();
    Instance west = federation.site("west").cluster();
    List<String> problems = new ArrayList<>();
    Map<String, String> outputs = new LinkedHashMap<>();
    Set<String> foreign = new TreeSet<>();
    // long jobs: twice what west holds at once, so that both executors are full of them
    for (int i = 0; i < 2 * FOREIGN_JOBS; i++) {
      String id = SlurmJobs.sbatch(north, "-p", north.get("federated.partition"), "-c", Integer.toString(FOREIGN_CORES),
          "--mem=" + memoryMb + "M", "-t", "3",
          "-o", jobs + "/%j.out", "--wrap", "sleep 40; echo long job " + i);
      outputs.put(id, "long job " + i + "\n");
      foreign.add("north/" + id);
    }
    Path westLog = federation.site("west").log();
    Eventually.waitFor(() -> "west to run " + FOREIGN_JOBS + " of north's long jobs", Duration.ofMinutes(2), Duration.ofSeconds(1),
        () -> claimed(westLog, foreign) >= FOREIGN_JOBS);
    Thread.sleep(2_000); // their runs under way, and a round of west's daemon past the claims
    Map<String, Long> submitted = new HashMap<>();
    for (int i = 0; i < LOCAL_JOBS; i++) {
      String id = SlurmJobs.sbatch(west, "-p", west.get("partition"), "-c", Integer.toString(LOCAL_CORES), "--mem=100M", "-t", "1", "-o",
          "/dev/null", "--wrap", "sleep 5");
      submitted.put(id, System.currentTimeMillis());
    }
    Map<String, Long> started = SlurmJobs.firstSeen(west, submitted.keySet(), state -> !state.equals("PENDING"), timeout, n -> { });
    List<Double> waits = new ArrayList<>();
    submitted.forEach((id, at) -> {
      if (started.containsKey(id)) {
        waits.add((started.get(id) - at) / 1e3);
      } else {
        problems.add("west's local job " + id + " did not start within " + timeout);
      }
    });
    Eventually.waitFor(() -> "north's long jobs to end there", timeout, Duration.ofSeconds(2), () -> outputs.keySet().stream()
        .allMatch(id -> {
          String state = SlurmJobs.state(north, id);
          return state.isEmpty() || SlurmJobs.ENDED.contains(state); // empty: slurmctld has forgotten it
        }));
    SlurmJobs.checkEndedOnce(north, jobs, outputs, problems);
    List<String> evicted = evicted(DecisionLog.read(federation.site("west").log()), foreign, problems);
    for (String job : evicted) {
      // the pilot, stopped, kills what is left of its run and deletes the run's folder
      String prefix = job.replace('/', '-') + "-";
      try (Stream<Path> left = Files.list(TestbedFederation.PILOT_SCRATCH)) {
        left.filter(p -> p.getFileName().toString().startsWith(prefix))
            .forEach(p -> problems.add("the evicted run of " + job + " left its folder " + p));
      }
    }
    return new Result(Percentiles.summary(waits), evicted.size(), evicted, killWait(west), problems);
  }

  /**
   * The runs of {@code foreign} jobs west evicted, from its decisions: those its daemon evicted, or,
   * where Slurm preempts, those whose pilot Slurm reported PREEMPTED (and then none the daemon evicted).
   */
  private List<String> evicted(List<Decision> west, Set<String> foreign, List<String> problems) {
    boolean bySlurm = federation.settings().batchSystemEvicts();
    List<String> evicted = new ArrayList<>();
    for (Decision d : west) {
      if (!foreign.contains(d.job())) {
        continue;
      }
      if (d.kind().equals("evict")) {
        if (bySlurm) {
          problems.add("west's daemon evicted " + d.job() + " though Slurm preempts there (sharing.eviction: batch-system)");
        }
        evicted.add(d.job());
      } else if (bySlurm && d.kind().equals("release") && d.detail().contains("PREEMPTED")) {
        evicted.add(d.job());
      }
    }
    if (evicted.isEmpty()) {
      problems.add((bySlurm ? "Slurm preempted" : "west evicted") + " none of north's runs for west's local jobs");
    }
    return evicted;
  }

  /** How many of {@code jobs} the daemon whose log is {@code log} has claimed. */
  private static long claimed(Path log, Set<String> jobs) {
    try {
      return DecisionLog.read(log).stream().filter(d -> d.kind().equals("claim") && jobs.contains(d.job())).count();
    } catch (IOException e) {
      return 0;
    }
  }

  /** The grace Slurm gives a cancelled job before it kills what is left ({@code KillWait}), in seconds. */
  private static double killWait(Instance slurm) {
    Command.Result r = Command.of(slurm.tool("scontrol"), "show", "config").run();
    return r.stdout().lines().filter(l -> l.startsWith("KillWait")).findFirst()
        .map(l -> Double.parseDouble(l.replaceAll("[^0-9]", ""))).orElse(30.0);
  }
}
