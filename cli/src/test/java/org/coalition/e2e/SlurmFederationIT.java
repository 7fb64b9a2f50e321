package org.coalition.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.coalition.handler.ExitStatus;
import org.coalition.testbed.Command;
import org.coalition.testbed.Eventually;
import org.coalition.testbed.Instance;
import org.coalition.testbed.Testbed;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The product end to end: three real Slurm clusters of the testbed (two 22.05, one 24.11 in the
 * Debian 13 chroot), a three-server ZooKeeper ensemble, and one {@code coalition daemon} process
 * per cluster, started from a site file. Users' {@code sbatch} jobs at the overloaded site run as
 * pilots at the others and end at home with the remote exit code and output, while a daemon is
 * killed with SIGKILL, the ZooKeeper leader restarts and slurmrestd stops for a minute. The
 * daemons' logs are kept in {@code target/e2e/SITE.log}.
 */
@Tag("testbed") // needs testbed/up's systems: .ci/run runs it once they are up
class SlurmFederationIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  /** Site name and testbed instance; the first is the overloaded home site. */
  private static final Map<String, String> SITES = new LinkedHashMap<>();

  static {
    SITES.put("north", "slurm22-c2"); // keeps accounting in the testbed's slurmdbd (testbed/up slurmdbd:c2 ...)
    SITES.put("south", "slurm24-c1");
    SITES.put("west", "slurm22-c1");
  }

  private static final int JOBS = 24;
  private static final int JOB_SECONDS = 8;
  private static final Duration OUTAGE = Duration.ofSeconds(60);

  @TempDir Path tmp;
  private Federation fed;
  private final Map<String, Instance> clusters = new LinkedHashMap<>();

  @AfterEach
  void stop() throws Exception {
    if (fed != null) {
      fed.close();
    }
    for (Instance slurm : clusters.values()) {
      Command.of(slurm.tool("scancel"), "-u", slurm.get("user")).run();
    }
  }

  @Test
  void usersJobsRunElsewhereAndEndAtHomeExactlyOnceThroughFaults() throws Exception {
    SITES.forEach((site, instance) -> clusters.put(site, Testbed.require(instance)));
    Instance north = clusters.get("north");
    assertEquals("slurmdbd", north.get("accounting"),
        "north must keep accounting in slurmdbd so that sacct can be checked: testbed/up slurmdbd:c2 slurm22 slurm22:c2 slurm24");
    fed = Federation.start(tmp, 3, List.copyOf(SITES.keySet()));
    Path jar = nodeVisibleJar();
    for (String site : SITES.keySet()) {
      startDaemon(site, jar);
    }
    fed.awaitLive(List.copyOf(SITES.keySet()));

    // A user at north submits more than north can run soon; one job depends on the first.
    Path jobs = Files.createDirectories(north.path("jobs.dir").resolve("e2e-" + System.nanoTime()));
    Files.setPosixFilePermissions(jobs, PosixFilePermissions.fromString("rwxrwxrwx"));
    long started = System.nanoTime();
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < JOBS; i++) {
      Path script = jobs.resolve("job" + i + ".sh");
      // each ends as expectedEnd says: an exit code, or a signal it sends itself (replayed as the signal, issue #24)
      ExitStatus end = expectedEnd(i);
      Files.writeString(script, "#!/bin/bash\nsleep " + JOB_SECONDS + "\necho \"job " + i + " output\"\necho \"job " + i + " errors\" >&2\n"
          + (end.signal() != 0 ? "kill -" + end.signal() + " $$\n" : "exit " + end.exitCode() + "\n"));
      script.toFile().setReadable(true, false);
      ids.add(Users.sbatch(north, "--parsable", "-p", north.get("federated.partition"), "-c", "8", "--mem=500M", "-t", "5", "-o",
          jobs + "/%j.out", script.toString()));
    }
    // An opted-in job that waits for another is published only once it is ready, wherever it runs. It waits for the
    // last job, so it stays unready for minutes while north is full: a daemon that published unready jobs would publish it.
    String dependency = ids.get(JOBS - 1);
    String chained = Users.sbatch(north, "--parsable", "-p", north.get("federated.partition"), "-c", "8", "--mem=100M", "-t", "5",
        "--dependency=afterok:" + dependency, "-o", jobs + "/%j.out", "--wrap", "echo chained ran");
    ChainWatch chain = new ChainWatch(north, chained, dependency);
    chain.start();
    String dependent = Users.sbatch(north, "--parsable", "-p", north.get("partition"), "--dependency=afterok:" + ids.get(0), "-o",
        jobs + "/%j.out", "--wrap", "echo dependent ran");
    // An opted-in job an administrator holds (issue #24: parks are marked as parks): north's daemon parks with holds of the
    // same kind, and must neither release this one nor publish it, through everything below.
    String adminHeld = Users.sbatch(north, "--parsable", "--hold", "-p", north.get("federated.partition"), "-c", "1", "--mem=100M", "-t", "5",
        "-o", jobs + "/%j.out", "--wrap", "echo held ran");
    Command.of(north.tool("scontrol"), "release", adminHeld).run().requireSuccess(); // the user's hold off,
    Command.of(north.tool("scontrol"), "hold", adminHeld).run().requireSuccess(); // an administrator's (root's) on
    assertEquals("JobHeldAdmin", fields(north, adminHeld).get("Reason"), "root's hold on job " + adminHeld);
    // A job that outlives its one-minute limit (issue #24: exit status as it was): TIMEOUT at north wherever it runs; a run
    // elsewhere is stopped there at its limit and replayed as TIMEOUT at the shrunk job's one minute.
    String overLimit = Users.sbatch(north, "--parsable", "-p", north.get("federated.partition"), "-c", "8", "--mem=100M", "-t", "1",
        "-o", jobs + "/%j.out", "--wrap", "echo over its limit; sleep 600");

    // Fault 1: kill -9 west's daemon while it runs a job, then start it again; then stop south's cleanly (SIGTERM) while it
    // runs one and start it again, as an upgrade does. The runs go on: a restarted daemon takes its pilots back from its
    // journal and adopts their claims within north's restart grace.
    Map<String, Double> keptRuns = new TreeMap<>(); // job -> when it was released to the federation (a requeue moves it)
    keptRuns.putAll(restartWhileRunning("west", jar, ids, true));
    Eventually.waitFor("west's daemon back", Duration.ofSeconds(60), () -> fed.liveSites("west") == 3);
    keptRuns.putAll(restartWhileRunning("south", jar, ids, false));

    // Fault 2: the ZooKeeper leader restarts.
    System.out.println("[e2e] restarted ZooKeeper leader, server " + fed.zk().restartLeader());

    // Fault 3: north's slurmrestd stops for a minute, then starts again.
    Eventually.waitFor("west's daemon back", Duration.ofSeconds(60), () -> fed.liveSites("west") == 3);
    long restd = Long.parseLong(Files.readString(north.path("jobs.dir").getParent().resolve("slurmrestd.pid")).trim());
    // SIGTERM, as testbed/down does; slurmrestd may wait for its open connections, so SIGKILL after 10 s.
    ProcessHandle rest = ProcessHandle.of(restd).orElseThrow(() -> new IllegalStateException("north's slurmrestd (pid " + restd + ") is not running"));
    rest.destroy();
    try {
      rest.onExit().get(10, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      rest.destroyForcibly();
      rest.onExit().get(10, TimeUnit.SECONDS);
    }
    System.out.println("[e2e] stopped north's slurmrestd for " + OUTAGE.toSeconds() + " s");
    Thread.sleep(OUTAGE.toMillis());
    Command.of(Path.of("..", "testbed", "up").toAbsolutePath().normalize(), "slurm22:" + north.get("cluster")).timeout(Duration.ofMinutes(2))
        .run().requireSuccess();
    System.out.println("[e2e] north's slurmrestd is back");

    // Every job ends at home exactly once, with the outcome of its one run.
    Map<String, Map<String, String>> ended = new LinkedHashMap<>();
    Map<String, String> comments = new HashMap<>(); // read as each job is seen ended: slurmctld forgets ended jobs after MinJobAge
    Eventually.waitFor(() -> "all " + JOBS + " jobs ended at north; ended: " + ended.keySet(), Duration.ofMinutes(8), Duration.ofSeconds(2),
        () -> {
          for (String id : ids) {
            if (!ended.containsKey(id)) {
              Map<String, String> f = fields(north, id);
              if (Arrays.asList("COMPLETED", "FAILED", "CANCELLED", "TIMEOUT").contains(f.get("JobState"))) {
                ended.put(id, f);
                comments.put(id, comment(north, id));
              }
            }
          }
          return ended.size() == JOBS;
        });
    double wall = (System.nanoTime() - started) / 1e9;
    Map<String, Integer> ranAt = new TreeMap<>();
    Map<String, String> signaled = new TreeMap<>(); // job -> where it ran, for the jobs that end by their own SIGTERM
    List<String> replayed = new ArrayList<>(); // the jobs that ran elsewhere and were replayed at north
    List<Double> latencies = new ArrayList<>();
    for (int i = 0; i < JOBS; i++) {
      String id = ids.get(i);
      Map<String, String> f = ended.get(id);
      String where = "north";
      JsonNode view = fed.jobOrNull("north", id);
      if (view != null) {
        assertEquals("replayed", view.path("state").asText(), "job " + id + " at north: " + view);
        where = view.path("executor").asText();
        replayed.add(id);
        assertTrue(comments.get(id).startsWith("coalition: ran at " + where + " for "), "job " + id + "'s comment at north says where it"
            + " ran: " + comments.get(id));
        latencies.add(view.path("start").asDouble() - view.path("release").asDouble());
      }
      ranAt.merge(where, 1, Integer::sum);
      if (expectedEnd(i).signal() != 0) {
        signaled.put(id, where);
      }
      assertEquals(slurmState(expectedEnd(i)), f.get("JobState"), "job " + i + " (" + id + ", ran at " + where + "): " + f);
      assertEquals(slurmExitCode(expectedEnd(i)), f.get("ExitCode"), "job " + i + " (" + id + ", ran at " + where + "): " + f);
      String out = Files.readString(jobs.resolve(id + ".out"));
      assertEquals("job " + i + " output\njob " + i + " errors\n", out, "job " + i + " (" + id + ", ran at " + where + ") wrote its output once");
    }
    // Slurm's accounting agrees: each job has one record (no requeue), with the remote run's state and exit code.
    Map<String, List<String>> accounted = new LinkedHashMap<>();
    Eventually.waitFor(() -> "slurmdbd to record the end of all " + JOBS + " jobs; recorded: " + accounted, Duration.ofSeconds(90),
        Duration.ofSeconds(2), () -> {
          accounted.clear();
          accounted.putAll(sacct(north, ids));
          return ids.stream().allMatch(id -> accounted.containsKey(id)
              && accounted.get(id).stream().noneMatch(r -> r.startsWith("PENDING") || r.startsWith("RUNNING")));
        });
    for (int i = 0; i < JOBS; i++) {
      String id = ids.get(i);
      String expected = slurmState(expectedEnd(i)) + "|" + slurmExitCode(expectedEnd(i));
      assertEquals(List.of(expected), accounted.get(id), "sacct of job " + i + " (" + id + ")");
    }
    System.out.println("[e2e] sacct at north: all " + JOBS + " jobs have one record each with the remote run's state and exit code");
    System.out.println("[e2e] jobs that ended by their own SIGTERM, where they ran: " + signaled + "; each FAILED 0:15 at north");
    homeCostOfReplays(north, replayed);
    Map<String, String> timedOut = waitEnded(north, overLimit, Duration.ofMinutes(5));
    JsonNode overLimitRun = fed.jobOrNull("north", overLimit);
    String overLimitWhere = overLimitRun == null ? "north" : overLimitRun.path("executor").asText();
    assertEquals("TIMEOUT", timedOut.get("JobState"), "job " + overLimit + ", past its limit at " + overLimitWhere + ": " + timedOut);
    assertEquals("0:15", timedOut.get("ExitCode"), "job " + overLimit + ", past its limit at " + overLimitWhere + ": " + timedOut);
    if (overLimitRun != null) {
      assertTrue(overLimitRun.path("timedOut").asBoolean(), "north's daemon says the run at " + overLimitWhere + " was stopped at its limit: "
          + overLimitRun);
    }
    assertTrue(Files.readString(jobs.resolve(overLimit + ".out")).startsWith("over its limit\n"), "job " + overLimit + "'s output");
    Eventually.waitFor(() -> "slurmdbd to record job " + overLimit + "'s end", Duration.ofSeconds(90), Duration.ofSeconds(2),
        () -> List.of("TIMEOUT|0:0").equals(sacct(north, List.of(overLimit)).get(overLimit)));
    System.out.println("[e2e] job " + overLimit + ", past its one-minute limit, ran at " + overLimitWhere + " and shows TIMEOUT at north"
        + " (one sacct record, TIMEOUT 0:0)");
    for (Map.Entry<String, Double> r : keptRuns.entrySet()) {
      JsonNode view = fed.jobOrNull("north", r.getKey());
      assertEquals(executors.get(r.getKey()), view.path("executor").asText(), "job " + r.getKey() + " ran on through its daemon's restart: " + view);
      assertEquals(r.getValue(), view.path("release").asDouble(), 1e-6, "job " + r.getKey() + " was never requeued: it kept the run it had"
          + " when west's daemon was killed: " + view);
    }
    System.out.println("[e2e] the runs at west and south when their daemons restarted, " + executors + ", went on and ended once");
    Map<String, String> held = fields(north, adminHeld);
    assertEquals("PENDING", held.get("JobState"), "job " + adminHeld + ", held by root, never ran: " + held);
    assertEquals("JobHeldAdmin", held.get("Reason"), "job " + adminHeld + " is still held by root: " + held);
    assertEquals(null, fed.jobOrNull("north", adminHeld), "job " + adminHeld + ", held by root, was never published");
    Command.of(north.tool("scancel"), adminHeld).run().requireSuccess();
    System.out.println("[e2e] job " + adminHeld + ", opted in and held by root, stayed held and out of the federation throughout");
    Eventually.waitFor("the dependent job ran after job " + ids.get(0), Duration.ofMinutes(2),
        () -> "COMPLETED".equals(fields(north, dependent).get("JobState")));
    assertEquals("dependent ran\n", Files.readString(jobs.resolve(dependent + ".out")));
    Eventually.waitFor("the chained job ran after job " + dependency, Duration.ofMinutes(2),
        () -> "COMPLETED".equals(fields(north, chained).get("JobState")));
    assertEquals("chained ran\n", Files.readString(jobs.resolve(chained + ".out")));
    chain.stop();
    assertTrue(chain.unreadySamples() >= 10, "the chained job was watched while its dependency had not ended: " + chain.unreadySamples()
        + " samples");
    assertEquals(List.of(), chain.violations(), "the chained job was never in the federation before its dependency ended");
    JsonNode chainedRun = fed.jobOrNull("north", chained);
    System.out.println("[e2e] chained job " + chained + " stayed out of the federation over " + chain.unreadySamples() + " samples while job "
        + dependency + " had not ended, then ran " + (chainedRun == null ? "at north" : "at " + chainedRun.path("executor").asText()));
    System.out.println("[e2e] where the " + JOBS + " jobs of north ran: " + ranAt + ", wall " + String.format("%.0f", wall) + " s");
    assertTrue(ranAt.getOrDefault("south", 0) > 0 && ranAt.getOrDefault("west", 0) > 0, "jobs ran at south and west: " + ranAt);

    // Contribution and priority move as DESIGN.md says: the sites that ran north's jobs gain.
    // north's jobs that ran elsewhere: the numbered ones, and the job past its limit and the chained job if they did
    int remote = JOBS - ranAt.getOrDefault("north", 0) + (overLimitRun == null ? 0 : 1) + (chainedRun == null ? 0 : 1);
    Eventually.waitFor(() -> "north's ledger to count the " + remote + " remote runs: " + ledger("north"), Duration.ofSeconds(90),
        Duration.ofSeconds(1), () -> executed(ledger("north")) >= remote);
    assertEquals(remote, executed(ledger("north")), "each remote run is counted once: " + ledger("north"));
    Map<String, JsonNode> rows = ledger("north");
    System.out.println("[e2e] ledger at north: " + rows);
    for (String executor : List.of("south", "west")) {
      assertTrue(rows.get(executor).path("contribution").asDouble() > 0, executor + " contributed: " + rows.get(executor));
      assertTrue(rows.get(executor).path("priority").asDouble() > rows.get("north").path("priority").asDouble(),
          executor + " is ahead of north: " + rows);
    }
    latencies.sort(Double::compare);
    System.out.printf("[e2e] publish-to-start latency over %d remote runs: p50 %.1f s, p99 %.1f s, max %.1f s; %.3f jobs/s through the"
        + " federation (%d remote jobs in %.0f s, faults included)%n", latencies.size(), percentile(latencies, 0.50),
        percentile(latencies, 0.99), latencies.get(latencies.size() - 1), latencies.size() / wall, latencies.size(), wall);
  }

  /**
   * A site of two clusters (one daemon, two Slurm handlers): its load is the sum of both, and a
   * job waiting on its full cluster is published (and parked there) although the other is idle,
   * under an id that names its cluster; it runs at another site and ends on its own cluster.
   */
  @Test
  void aSiteOfTwoClustersSendsOutWhatItsFullClusterCannotRunSoon() throws Exception {
    Instance a = Testbed.require("slurm22-c1");
    Instance b = Testbed.require("slurm22-c2");
    clusters.put("a", a);
    clusters.put("b", b);
    clusters.put("south", Testbed.require(SITES.get("south")));
    federation(List.of("duo", "south"));
    Path jar = nodeVisibleJar();
    startDaemon("duo", jar, List.of(a, b));
    startDaemon("south", jar);
    Eventually.waitFor("duo's daemon observes both clusters (16 cores) and sees south", Duration.ofSeconds(60),
        () -> fed.status("duo").path("totalCores").asInt() == 16 && fed.liveSites("duo") == 2);
    String handler = fed.status("duo").path("handler").asText();
    assertTrue(handler.startsWith(a.get("cluster") + ": slurm 22.05") && handler.contains("; " + b.get("cluster") + ": slurm 22.05"), handler);

    String filler = Users.sbatch(b, "--parsable", "-p", b.get("partition"), "-c", "8", "-t", "5", "-o", "/dev/null", "--wrap", "sleep 300");
    Eventually.waitFor("the filler job runs on " + b.get("cluster"), Duration.ofSeconds(30), () -> "RUNNING".equals(fields(b, filler).get("JobState")));
    Path jobs = Files.createDirectories(b.path("jobs.dir").resolve("e2e-duo-" + System.nanoTime()));
    Files.setPosixFilePermissions(jobs, PosixFilePermissions.fromString("rwxrwxrwx"));
    String waiting = Users.sbatch(b, "--parsable", "-p", b.get("federated.partition"), "-c", "8", "--mem=500M", "-t", "5",
        "-o", jobs.resolve("%j.out").toString(), "--wrap", "sleep 10; echo ran at $SLURM_CLUSTER_NAME");
    String federated = b.get("cluster") + "." + waiting;
    Eventually.waitFor("job " + federated + " is published", Duration.ofSeconds(60), () -> !fed.job("duo", federated).isEmpty());
    Map<String, String> parked = fields(b, waiting);
    assertEquals("JobHeldAdmin", parked.get("Reason"), "parked on its own cluster while " + a.get("cluster") + " is idle: " + parked);

    Eventually.waitFor("job " + federated + " ran at south and came back", Duration.ofMinutes(2),
        () -> "replayed".equals(fed.job("duo", federated).path("state").asText()));
    assertEquals("south", fed.job("duo", federated).path("executor").asText());
    Command.of(b.tool("scancel"), filler).run().requireSuccess();
    Eventually.waitFor("job " + waiting + " ends on " + b.get("cluster"), Duration.ofSeconds(60),
        () -> "COMPLETED".equals(fields(b, waiting).get("JobState")));
    assertEquals("0:0", fields(b, waiting).get("ExitCode"));
    assertEquals("ran at " + clusters.get("south").get("cluster") + "\n", Files.readString(jobs.resolve(waiting + ".out")),
        "the output of the run at south, replayed on " + b.get("cluster"));
    System.out.println("[e2e] site of two clusters: " + handler + "; job " + federated + " ran at south while " + a.get("cluster")
        + " was idle, and ended on " + b.get("cluster"));
  }

  /** The job of the files test: it reads the inputs it declares and writes outputs in nested folders, one of 100 MB. */
  private static final String FILES_JOB = """
      #!/bin/bash
      #COALITION --stage-in=input.txt
      #COALITION --stage-in=params
      set -e
      mkdir -p out/nested/deep
      tr a-z A-Z < input.txt > out/nested/deep/upper.txt
      cp params/p.json out/p-copy.json
      yes coalition | head -c 100000000 > out/big.bin
      echo "read $(wc -c < input.txt) bytes and $(ls params | wc -l) params"
      """;

  /**
   * Issue #24, files: a job that reads the inputs it declares and writes several outputs in nested
   * folders (one of 100 MB) is run at home, then again with north full, so that it runs at south.
   * Its outputs come back byte-identical to the run at home, with the same output file and the same
   * state in {@code sacct}. A job whose declared input is missing stays home, says why in its
   * comment, and runs there.
   */
  @Test
  void aJobsFilesTravelWithItAndComeBackAsTheyWouldAtHome() throws Exception {
    Instance north = sites(List.of("north", "south"));
    Path base = Files.createDirectories(north.path("jobs.dir").resolve("e2e-files-" + System.nanoTime()));
    Files.setPosixFilePermissions(base, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path script = Files.writeString(base.resolve("job.sh"), FILES_JOB);
    Path missingScript = Files.writeString(base.resolve("missing.sh"), "#!/bin/bash\n#COALITION --stage-in=nothing-here.txt\necho ran here\n");
    Map<String, Path> dirs = new LinkedHashMap<>();
    UserPrincipal user = base.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName(north.get("user"));
    for (String run : List.of("home", "away")) {
      Path dir = Files.createDirectories(base.resolve(run).resolve("params"));
      Files.writeString(dir.resolve("p.json"), "{\"alpha\": 0.7}\n");
      Files.writeString(dir.getParent().resolve("input.txt"), "the quick brown fox\n".repeat(1000));
      for (Path p : List.of(dir.getParent(), dir, dir.resolve("p.json"), dir.getParent().resolve("input.txt"))) {
        Files.setOwner(p, user);
      }
      dirs.put(run, dir.getParent());
    }

    String atHome = runAtHome(north, dirs.get("home"), script);
    String filler = fill(north);
    long submitted = System.nanoTime();
    String away = Users.sbatch(north, "--parsable", "-p", north.get("federated.partition"), "-c", "8", "--mem=500M", "-t", "5", "-D",
        dirs.get("away").toString(), "-o", dirs.get("away") + "/slurm.out", script.toString());
    String missing = Users.sbatch(north, "--parsable", "-p", north.get("federated.partition"), "-c", "1", "--mem=100M", "-t", "5", "-D",
        dirs.get("away").toString(), "-o", dirs.get("away") + "/missing.out", missingScript.toString());
    Eventually.waitFor(() -> "job " + away + " ran at south and came back; north says " + fed.job("north", away), Duration.ofMinutes(4),
        Duration.ofSeconds(2), () -> "replayed".equals(fed.job("north", away).path("state").asText()));
    assertEquals("south", fed.job("north", away).path("executor").asText());
    double seconds = (System.nanoTime() - submitted) / 1e9;
    Eventually.waitFor(() -> "north's squeue to say why job " + missing + " stays; shows '" + comment(north, missing) + "'",
        Duration.ofSeconds(30), Duration.ofSeconds(1), () -> comment(north, missing).startsWith("coalition: stays here: "));
    assertEquals("coalition: stays here: inputs: nothing-here.txt: Cannot stat: No such file or directory", comment(north, missing));
    assertEquals("home", fed.job("north", missing).path("state").asText(), "the job with a missing input was never published");
    assertEquals("inputs: nothing-here.txt: Cannot stat: No such file or directory", fed.job("north", missing).path("reason").asText());
    Command.of(north.tool("scancel"), filler).run().requireSuccess();

    assertEquals("COMPLETED", waitEnded(north, away, Duration.ofMinutes(2)).get("JobState"), "the replay of the run at south");
    assertEquals("COMPLETED", waitEnded(north, missing, Duration.ofMinutes(2)).get("JobState"), "the job that stayed home ran there");
    assertEquals("ran here\n", Files.readString(dirs.get("away").resolve("missing.out")));
    Map<String, List<String>> accounted = sacct(north, List.of(atHome, away));
    assertEquals(accounted.get(atHome), accounted.get(away), "sacct: the same state and exit code at home and through the federation");
    assertEquals(Files.readString(dirs.get("home").resolve("slurm.out")), Files.readString(dirs.get("away").resolve("slurm.out")));
    List<Path> outputs = new ArrayList<>();
    try (var walk = Files.walk(dirs.get("home").resolve("out"))) {
      walk.filter(Files::isRegularFile).forEach(f -> outputs.add(dirs.get("home").relativize(f)));
    }
    long bytes = 0;
    for (Path f : outputs) {
      Path there = dirs.get("away").resolve(f);
      assertTrue(Files.isRegularFile(there), f + " came back");
      assertEquals(-1, Files.mismatch(dirs.get("home").resolve(f), there), f + " is byte-identical to the run at home");
      assertEquals(north.get("user"), Files.getOwner(there).getName(), f + " is its user's");
      bytes += Files.size(there);
    }
    try (var walk = Files.walk(dirs.get("away").resolve("out"))) {
      assertEquals(outputs.size(), walk.filter(Files::isRegularFile).count(), "nothing more came back than the run at home wrote");
    }
    assertEquals(3, outputs.size(), outputs.toString());
    System.out.printf("[e2e] files: job %s read its inputs at south and brought back %d files (%d bytes) byte-identical to the run at"
        + " home, %.1f s from submission to its replay; job %s with a missing input stayed home%n", away, outputs.size(), bytes, seconds,
        missing);
  }

  /** A job that says as whom and where it runs, reads a file it never declared, and writes two files in nested folders. */
  private static final String DOMAIN_JOB = """
      #!/bin/bash
      echo "as $(id -un) in $(basename "$PWD")"
      mkdir -p out/deep
      tr a-z A-Z < undeclared.txt > out/deep/upper.txt
      echo second > out/second.txt
      """;

  /**
   * Identity domains (issue #24): north and west declare one that maps the testbed's user and
   * shares north's jobs folder (both clusters run on this host: the same users, the same files).
   * A job that reads a file it never declared and writes two runs at west as its own user, in its
   * own folder at north, with nothing staged, and ends at north as the run at home did; west's
   * pool account, which runs the jobs of users no domain maps, never touches it.
   */
  @Test
  void aJobOfAnIdentityDomainRunsAsItsUserInItsOwnFolderWithNothingStaged() throws Exception {
    Path shared = Testbed.require(SITES.get("north")).path("jobs.dir");
    poolAccount = Testbed.require(SITES.get("west")).get("pool");
    String account = Testbed.require(SITES.get("north")).get("user");
    for (String site : List.of("north", "west")) {
      siteFileExtra.put(site, String.format("""
          identity-domains:
            - name: testbed
              sites: [north, west]
              users: [%s]
              shared: [%s]
          """, account, shared));
    }
    Instance north = sites(List.of("north", "west")); // neither is in the chroot: north's jobs folder holds the jar
    Path base = Files.createDirectories(shared.resolve("e2e-domain-" + System.nanoTime()));
    Files.setPosixFilePermissions(base, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path script = Files.writeString(base.resolve("job.sh"), DOMAIN_JOB);
    UserPrincipal user = base.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName(north.get("user"));
    Map<String, Path> dirs = new LinkedHashMap<>();
    for (String run : List.of("home", "away")) {
      Path dir = Files.createDirectories(base.resolve(run).resolve("run"));
      Files.writeString(dir.resolve("undeclared.txt"), "the quick brown fox\n".repeat(100));
      for (Path p : List.of(dir.getParent(), dir, dir.resolve("undeclared.txt"))) {
        Files.setOwner(p, user);
      }
      dirs.put(run, dir);
    }

    String atHome = runAtHome(north, dirs.get("home"), script);
    String filler = fill(north);
    long submitted = System.nanoTime();
    String away = Users.sbatch(north, "--parsable", "-p", north.get("federated.partition"), "-c", "8", "--mem=500M", "-t", "5", "-D",
        dirs.get("away").toString(), "-o", dirs.get("away") + "/slurm.out", script.toString());
    Eventually.waitFor(() -> "job " + away + " ran at west and came back; north says " + fed.job("north", away), Duration.ofMinutes(4),
        Duration.ofSeconds(2), () -> "replayed".equals(fed.job("north", away).path("state").asText()));
    double seconds = (System.nanoTime() - submitted) / 1e9;
    assertEquals("west", fed.job("north", away).path("executor").asText());
    Command.of(north.tool("scancel"), filler).run().requireSuccess();
    assertEquals("COMPLETED", waitEnded(north, away, Duration.ofMinutes(2)).get("JobState"), "the replay of the run at west");

    assertEquals("as " + north.get("user") + " in run\n", Files.readString(dirs.get("away").resolve("slurm.out")),
        "it ran as its own user (not west's pool account, " + poolAccount + ") in its own folder");
    assertEquals(Files.readString(dirs.get("home").resolve("slurm.out")), Files.readString(dirs.get("away").resolve("slurm.out")));
    Map<String, List<String>> accounted = sacct(north, List.of(atHome, away));
    assertEquals(accounted.get(atHome), accounted.get(away), "sacct: the same state and exit code at home and through the federation");
    for (String f : List.of("out/deep/upper.txt", "out/second.txt")) {
      Path there = dirs.get("away").resolve(f);
      assertEquals(-1, Files.mismatch(dirs.get("home").resolve(f), there), f + " is byte-identical to the run at home");
      assertEquals(north.get("user"), Files.getOwner(there).getName(), f + " was written by its user");
    }
    try (var names = Files.list(dirs.get("away"))) {
      assertEquals(List.of("out", "slurm.out", "undeclared.txt"), names.map(p -> p.getFileName().toString()).sorted().toList(),
          "nothing beside what the job wrote: no conflict copies, nothing unpacked over it");
    }
    String claim;
    try (var lines = Files.lines(Federation.log("west"))) {
      claim = lines.filter(l -> l.contains("north/" + away) && l.contains("in place in ")).findFirst().orElse("");
    }
    assertTrue(claim.contains("in place in " + dirs.get("away")), "west's decision says it ran in place: '" + claim + "'");
    System.out.printf("[e2e] identity domain: job %s of %s ran at west as its user in its own folder at north, read a file it never"
        + " declared and wrote 2 files byte-identical to the run at home, nothing staged; %.1f s from submission to its replay%n", away,
        north.get("user"), seconds);
  }

  /** A job of 100 MB that takes a string of 600 MB, then says it went on. */
  private static final String MEMORY_JOB = """
      #!/bin/bash
      echo start
      perl -e '$x = "x" x (600 * 1024 * 1024); print "survived\\n";'
      echo after
      """;

  /**
   * Exit status as it was, for memory (issue #24): north and west, both Slurm 22.05 with memory
   * enforced by cgroups (testbed/README.md), run a job that passes its {@code --mem}: at home
   * Slurm kills it and records OUT_OF_MEMORY; through the federation it is killed at west, inside
   * the pilot's memory, and ends at north as OUT_OF_MEMORY too, with the same {@code sacct} record.
   */
  @Test
  void aJobPastItsMemoryIsKilledWhereItRunsAndEndsAtHomeAsOutOfMemory() throws Exception {
    for (String site : List.of("north", "west")) {
      Instance i = Testbed.require(SITES.get(site));
      assertEquals("true", i.get("memory.enforced"), site + " (" + SITES.get(site) + ") must enforce memory: cgroup v1's memory hierarchy at"
          + " /sys/fs/cgroup/memory, testbed/README.md");
    }
    Instance north = sites(List.of("north", "west"));
    Path base = Files.createDirectories(north.path("jobs.dir").resolve("e2e-memory-" + System.nanoTime()));
    Files.setPosixFilePermissions(base, PosixFilePermissions.fromString("rwxrwxrwx"));
    Path script = Files.writeString(base.resolve("job.sh"), MEMORY_JOB);
    String atHome = Users.sbatch(north, "--parsable", "-p", north.get("partition"), "-c", "1", "--mem=100M", "-t", "5", "-o", base + "/home.out",
        script.toString());
    assertEquals("OUT_OF_MEMORY", waitEnded(north, atHome, Duration.ofMinutes(3)).get("JobState"), "the run at home");
    String filler = fill(north);
    String away = Users.sbatch(north, "--parsable", "-p", north.get("federated.partition"), "-c", "1", "--mem=100M", "-t", "5", "-o",
        base + "/away.out", script.toString());
    Eventually.waitFor(() -> "job " + away + " ran at west and came back; north says " + fed.job("north", away), Duration.ofMinutes(4),
        Duration.ofSeconds(2), () -> "replayed".equals(fed.job("north", away).path("state").asText()));
    JsonNode run = fed.job("north", away);
    assertEquals("west", run.path("executor").asText());
    assertTrue(run.path("outOfMemory").asBoolean(), "west's pilot saw its run killed for memory: " + run);
    Command.of(north.tool("scancel"), filler).run().requireSuccess();
    assertEquals("OUT_OF_MEMORY", waitEnded(north, away, Duration.ofMinutes(2)).get("JobState"), "the replay of the run at west");
    Map<String, List<String>> accounted = sacct(north, List.of(atHome, away));
    assertEquals(accounted.get(atHome), accounted.get(away), "sacct: the same state and exit code at home and through the federation");
    for (String out : List.of("home.out", "away.out")) {
      String text = Files.readString(base.resolve(out));
      assertTrue(text.startsWith("start\n") && text.contains("\nafter\n") && !text.contains("\nsurvived\n"), "killed, and the job went on: "
          + out + ": " + text);
    }
    System.out.printf("[e2e] memory: job %s passed its 100 MB at west, was killed there and ends at north as %s, as the run at home%n",
        away, accounted.get(away));
  }

  /** Runs {@code script} in {@code dir} in north's own partition, as a run through the federation is compared with; its id, ended. */
  private static String runAtHome(Instance north, Path dir, Path script) {
    String id = Users.sbatch(north, "--parsable", "-p", north.get("partition"), "-c", "1", "-t", "5", "-D", dir.toString(), "-o", dir + "/slurm.out",
        script.toString());
    assertEquals("COMPLETED", waitEnded(north, id, Duration.ofMinutes(3)).get("JobState"), "the run at home");
    return id;
  }

  /** Fills north's 8 cores for five minutes, so that its opted-in jobs go elsewhere; the filler's id, once it runs. */
  private static String fill(Instance north) {
    String filler = Users.sbatch(north, "--parsable", "-p", north.get("partition"), "-c", "8", "-t", "5", "-o", "/dev/null", "--wrap", "sleep 300");
    Eventually.waitFor("north's filler job runs", Duration.ofSeconds(30), () -> "RUNNING".equals(fields(north, filler).get("JobState")));
    return filler;
  }

  private static final int TASKS = 50;
  /** An array task that says which it is, writes a file of its own and ends with an exit code of its own. */
  private static final String ARRAY_JOB = """
      #!/bin/bash
      echo "task $SLURM_ARRAY_TASK_ID of $SLURM_ARRAY_TASK_COUNT ($SLURM_ARRAY_TASK_MIN-$SLURM_ARRAY_TASK_MAX:$SLURM_ARRAY_TASK_STEP)"
      echo "array $SLURM_ARRAY_JOB_ID"
      mkdir -p out && echo "result of task $SLURM_ARRAY_TASK_ID" > "out/t$SLURM_ARRAY_TASK_ID.txt"
      sleep 1
      exit $((SLURM_ARRAY_TASK_ID % 3))
      """;

  /**
   * An array of 50 tasks, run once at home and once through the federation while home is full:
   * each task runs on its own at another site, and at home each shows its own state and exit code
   * in {@code sacct}, its own output and its own file, as the run at home did.
   */
  @Test
  void anArraysTasksRunAcrossSitesAndEachEndsAtHomeAsItWouldThere() throws Exception {
    Instance north = threeSites();
    Path script = homeAndAway(north, "array", ARRAY_JOB);
    Map<String, Path> dirs = Map.of("home", script.resolveSibling("home"), "away", script.resolveSibling("away"));
    String spec = "0-" + (TASKS - 1);
    String atHome = Users.sbatch(north, "--parsable", "-p", north.get("partition"), "-a", spec, "-c", "1", "--mem=100M", "-t", "5",
        "-D", dirs.get("home").toString(), "-o", dirs.get("home") + "/%a.out", script.toString());
    Eventually.waitFor(() -> "the array at home to end", Duration.ofMinutes(4), Duration.ofSeconds(2),
        () -> Command.of(north.tool("squeue"), "-h", "-j", atHome).run().stdout().isBlank());

    String filler = Users.sbatch(north, "--parsable", "-p", north.get("partition"), "-c", "8", "-t", "15", "-o", "/dev/null", "--wrap", "sleep 900");
    Eventually.waitFor("north's filler job runs", Duration.ofSeconds(30), () -> "RUNNING".equals(fields(north, filler).get("JobState")));
    long submitted = System.nanoTime();
    String away = Users.sbatch(north, "--parsable", "-p", north.get("federated.partition"), "-a", spec, "-c", "1", "--mem=100M", "-t", "5",
        "-D", dirs.get("away").toString(), "-o", dirs.get("away") + "/%a.out", script.toString());
    List<String> tasks = new ArrayList<>();
    for (int t = 0; t < TASKS; t++) {
      tasks.add(away + "_" + t);
    }
    List<String> left = new ArrayList<>(tasks);
    Eventually.waitFor(() -> "every task of " + away + " to run elsewhere and come back; left: " + left, Duration.ofMinutes(10),
        Duration.ofSeconds(2), () -> {
          left.removeIf(t -> "replayed".equals(fed.job("north", t).path("state").asText()));
          return left.isEmpty();
        });
    double seconds = (System.nanoTime() - submitted) / 1e9;
    // the replays need a core at home: north's users get theirs back
    Command.of(north.tool("scancel"), filler).run().requireSuccess();
    Eventually.waitFor(() -> "every task of " + away + " to end at north; left: "
        + Command.of(north.tool("squeue"), "-h", "-r", "-j", away, "-o", "%i:%T").run().stdout().replace('\n', ' '),
        Duration.ofMinutes(3), Duration.ofSeconds(2), () -> Command.of(north.tool("squeue"), "-h", "-j", away).run().stdout().isBlank());

    Map<String, Integer> where = new TreeMap<>();
    for (String task : tasks) {
      JsonNode view = fed.job("north", task);
      assertEquals("replayed", view.path("state").asText(), "task " + task + ": " + view);
      where.merge(view.path("executor").asText(), 1, Integer::sum);
    }
    assertEquals(Set.of("south", "west"), where.keySet(), "the tasks ran at both other sites: " + where);
    Map<String, List<String>> homeAccounting = sacct(north, List.of(atHome));
    Map<String, List<String>> awayAccounting = sacct(north, List.of(away));
    for (int t = 0; t < TASKS; t++) {
      List<String> expected = homeAccounting.get(atHome + "_" + t);
      assertEquals(List.of(t % 3 == 0 ? "COMPLETED|0:0" : "FAILED|" + (t % 3) + ":0"), expected, "task " + t + " at home");
      assertEquals(expected, awayAccounting.get(away + "_" + t), "sacct of task " + t + ": the same state and exit code, one record");
      assertEquals(Files.readString(dirs.get("home").resolve(t + ".out")).replace(atHome, "<A>"),
          Files.readString(dirs.get("away").resolve(t + ".out")).replace(away, "<A>"), "output of task " + t);
      Path file = Path.of("out", "t" + t + ".txt");
      assertEquals(-1, Files.mismatch(dirs.get("home").resolve(file), dirs.get("away").resolve(file)), file + " came back as written at home");
    }
    System.out.printf("[e2e] array: %d tasks of job %s ran at %s and ended at north each with its own state, exit code, output and file,"
        + " as at home; %.1f s from submission to the last run's return%n", TASKS, away, where, seconds);
  }

  private static final String GPU_JOB = """
      #!/bin/bash
      echo "tasks $SLURM_NTASKS, GPUs on its node $SLURM_GPUS_ON_NODE, visible $CUDA_VISIBLE_DEVICES"
      srun bash -c 'echo "task $SLURM_PROCID of $SLURM_NTASKS"' | sort
      exit 3
      """;

  /**
   * A job of two tasks and a GPU, run once at home and once through the federation while north's
   * GPU is taken (its cores are free: the job waits for the GPU, and is published for it): it runs
   * at south, whose node has a GPU free, never at west, which has none, sees its GPU and its two
   * tasks there as it did at home, and ends at north with the same state, exit code and output.
   */
  @Test
  void aGpuJobRunsOnlyWhereAGpuIsFreeAndEndsAtHomeAsItWouldThere() throws Exception {
    Instance north = threeSites();
    Path script = homeAndAway(north, "gpu", GPU_JOB);
    Map<String, Path> dirs = Map.of("home", script.resolveSibling("home"), "away", script.resolveSibling("away"));
    String atHome = Users.sbatch(north, "--parsable", "-p", north.get("partition"), "--gres=gpu:1", "-n", "2", "--mem=100M", "-t", "5",
        "-D", dirs.get("home").toString(), "-o", dirs.get("home") + "/gpu.out", script.toString());
    Eventually.waitFor(() -> "the job at home to end", Duration.ofMinutes(2), Duration.ofSeconds(1),
        () -> Command.of(north.tool("squeue"), "-h", "-j", atHome).run().stdout().isBlank());

    String taker = Users.sbatch(north, "--parsable", "-p", north.get("partition"), "--gres=gpu:1", "-c", "1", "--mem=100M", "-t", "15",
        "-o", "/dev/null", "--wrap", "sleep 900");
    Eventually.waitFor("north's GPU is taken", Duration.ofSeconds(30), () -> "RUNNING".equals(fields(north, taker).get("JobState")));
    long submitted = System.nanoTime();
    String away = Users.sbatch(north, "--parsable", "-p", north.get("federated.partition"), "--gres=gpu:1", "-n", "2", "--mem=100M", "-t", "5",
        "-D", dirs.get("away").toString(), "-o", dirs.get("away") + "/gpu.out", script.toString());
    Eventually.waitFor(() -> "job " + away + " to run elsewhere and come back: " + fed.job("north", away), Duration.ofMinutes(4),
        Duration.ofSeconds(1), () -> "replayed".equals(fed.job("north", away).path("state").asText()));
    double seconds = (System.nanoTime() - submitted) / 1e9;
    // Its replay waits for a GPU at home: Slurm keeps a pending job's GRES when they are taken off
    // (docs/decisions/0012-jobs-keep-their-meaning.md), so north's users get their GPU back first.
    Command.of(north.tool("scancel"), taker).run().requireSuccess();
    Eventually.waitFor(() -> "job " + away + " to end at north", Duration.ofMinutes(2), Duration.ofSeconds(1),
        () -> Command.of(north.tool("squeue"), "-h", "-j", away).run().stdout().isBlank());

    JsonNode view = fed.job("north", away);
    assertEquals("replayed", view.path("state").asText(), view.toString());
    assertEquals("south", view.path("executor").asText(), "only south has a GPU free: " + view);
    // west's daemon never tried (its Slurm would have refused a pilot of a GPU): no decision of its names the job
    Pattern named = Pattern.compile("north/" + away + "\\b");
    List<String> westSaw = Files.readAllLines(Federation.log("west")).stream().filter(l -> named.matcher(l).find()).toList();
    assertEquals(List.of(), westSaw, "west, which has no GPU, submitted no pilot for it");
    List<String> expected = sacct(north, List.of(atHome)).get(atHome);
    assertEquals(List.of("FAILED|3:0"), expected, "at home");
    assertEquals(expected, sacct(north, List.of(away)).get(away), "the same state and exit code, one record");
    String output = Files.readString(dirs.get("home").resolve("gpu.out"));
    assertEquals("tasks 2, GPUs on its node 1, visible 0\ntask 0 of 2\ntask 1 of 2\n", output, "at home");
    assertEquals(output, Files.readString(dirs.get("away").resolve("gpu.out")), "the run at south saw its GPU and its two tasks");
    System.out.printf("[e2e] gpu: job %s of a GPU and 2 tasks ran at %s (west has no GPU) and ended at north as at home; %.1f s from"
        + " submission to its run's return%n", away, view.path("executor").asText(), seconds);
  }

  /**
   * A folder in north's jobs folder with {@code script} in it ({@code NAME.sh}) and two working
   * folders of north's user beside it, {@code home} and {@code away}, for the run at home and the
   * run through the federation; returns the script.
   */
  private static Path homeAndAway(Instance north, String name, String script) throws IOException {
    Path base = Files.createDirectories(north.path("jobs.dir").resolve("e2e-" + name + "-" + System.nanoTime()));
    Files.setPosixFilePermissions(base, PosixFilePermissions.fromString("rwxr-xr-x"));
    UserPrincipal user = base.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName(north.get("user"));
    for (String run : List.of("home", "away")) {
      Files.setOwner(Files.createDirectories(base.resolve(run)), user);
    }
    return Files.writeString(base.resolve(name + ".sh"), script);
  }

  /** Starts the three sites' daemons on one ZooKeeper server, every site live at each; returns north's cluster. */
  private Instance threeSites() throws Exception {
    return sites(List.copyOf(SITES.keySet()));
  }

  /**
   * A one-server ensemble with {@code names} (of {@link #SITES}) as members, and a daemon for each
   * (its file with {@link #siteFileExtra}), once each answers with all of them live; north's cluster.
   */
  private Instance sites(List<String> names) throws Exception {
    for (String site : names) {
      clusters.put(site, Testbed.require(SITES.get(site)));
    }
    federation(names);
    Path jar = nodeVisibleJar();
    for (String site : names) {
      startDaemon(site, jar);
    }
    for (String site : names) {
      Eventually.waitFor(site + "'s daemon answers with every site live", Federation.START, () -> fed.liveSites(site) == names.size());
    }
    return clusters.get("north");
  }

  /**
   * A Slurm site's users' jobs run at a Grid Engine site (through DRMAA) and an HTCondor site
   * (through its tools), each daemon started from its site file: the pilots run as the mapped
   * account, never root, and every job ends at home with the remote run's exit code and output.
   * A job of a GPU runs at the HTCondor site, whose slot has one, never at the Grid Engine site.
   */
  @Test
  void gridEngineAndHtcondorSitesRunASlurmSitesJobs() throws Exception {
    Instance home = Testbed.require("slurm22-c2"); // a cluster of a GPU
    Instance sge = Testbed.require("sge");
    Instance condor = Testbed.require("condor");
    clusters.put("north", home);
    List<String> members = List.of("central", "east", "north");
    federation(members);
    Path jar = Federation.nodeVisibleJar(condor);
    try {
      startDaemon("north", jar, List.of(home));
      startDaemon("east", jar, String.format("""
            - type: gridengine
              library: %s
              qstat: %s
          """, sge.path("drmaa.library"), sge.tool("qstat")), sge.get("user"), "",
          Federation.gridEngineEnvironment(sge));
      // The testbed's HTCondor tools run in the chroot, as the user COALITION_TESTBED_USER names.
      startDaemon("central", jar, String.format("""
            - type: htcondor
              bin: %s
              as-user: [env, "COALITION_TESTBED_USER={user}"]
          """, condor.path("bin")), condor.get("user"), "", Map.of());
      fed.awaitLive(members);
      String east = fed.status("east").path("handler").asText();
      String central = fed.status("central").path("handler").asText();
      assertTrue(east.startsWith("Grid Engine ") && east.contains("DRMAA 1.0"), east);
      assertTrue(central.startsWith("HTCondor " + condor.get("condor.version")), central);

      // North is full, so its users' jobs cannot run soon there.
      String filler = Users.sbatch(home, "--parsable", "-p", home.get("partition"), "-c", "8", "-t", "5", "-o", "/dev/null", "--wrap", "sleep 300");
      Path jobs = Files.createDirectories(home.path("jobs.dir").resolve("e2e-mixed-" + System.nanoTime()));
      Files.setPosixFilePermissions(jobs, PosixFilePermissions.fromString("rwxrwxrwx"));
      int count = 8;
      List<String> ids = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        Path script = jobs.resolve("job" + i + ".sh");
        Files.writeString(script, "#!/bin/bash\nsleep 20\necho \"job " + i + " ran as $(id -un)\"\nexit " + expectedExit(i) + "\n");
        script.toFile().setReadable(true, false);
        ids.add(Users.sbatch(home, "--parsable", "-p", home.get("federated.partition"), "-c", "1", "--mem=100M", "-t", "5", "-o",
            jobs + "/%j.out", script.toString()));
      }
      // A job of a GPU: Grid Engine's pilots ask for none, HTCondor's ask request_GPUs (its slot has one: testbed/lib/condor.sh).
      Path gpuScript = Files.writeString(jobs.resolve("gpu.sh"), "#!/bin/bash\necho \"ran with GPU $CUDA_VISIBLE_DEVICES\"\n");
      gpuScript.toFile().setReadable(true, false);
      String gpuJob = Users.sbatch(home, "--parsable", "-p", home.get("federated.partition"), "-c", "1", "--mem=100M", "--gres=gpu:1", "-t", "5",
          "-o", jobs + "/%j.out", gpuScript.toString());
      // The replays wait for a core at home: the filler goes once every job has run elsewhere and come back.
      Map<String, String> states = new TreeMap<>();
      Eventually.waitFor(() -> "all " + (count + 1) + " jobs ran elsewhere and came back to north; states: " + states, Duration.ofMinutes(4),
          Duration.ofSeconds(2), () -> {
            Stream.concat(ids.stream(), Stream.of(gpuJob)).forEach(id -> states.put(id, fed.job("north", id).path("state").asText("not published")));
            return states.values().stream().allMatch("replayed"::equals);
          });
      assertEquals("central", fed.job("north", gpuJob).path("executor").asText(), "the job of a GPU ran where a slot has one");
      Command.of(home.tool("scancel"), filler).run().requireSuccess();
      Map<String, Map<String, String>> ended = new LinkedHashMap<>();
      Eventually.waitFor(() -> "all " + count + " jobs ended at north; ended: " + ended.keySet(), Duration.ofMinutes(2), Duration.ofSeconds(2),
          () -> {
            for (String id : ids) {
              Map<String, String> f = fields(home, id);
              if (!ended.containsKey(id) && Arrays.asList("COMPLETED", "FAILED", "CANCELLED", "TIMEOUT").contains(f.get("JobState"))) {
                ended.put(id, f);
              }
            }
            return ended.size() == count;
          });
      Map<String, Integer> ranAt = new TreeMap<>();
      List<Double> latencies = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        String id = ids.get(i);
        JsonNode view = fed.jobOrNull("north", id);
        String where = view == null ? "north" : view.path("executor").asText();
        ranAt.merge(where, 1, Integer::sum);
        if (view != null) {
          latencies.add(view.path("start").asDouble() - view.path("release").asDouble());
        }
        Map<String, String> f = ended.get(id);
        assertEquals(expectedExit(i) == 0 ? "COMPLETED" : "FAILED", f.get("JobState"), "job " + i + " (" + id + ", ran at " + where + "): " + f);
        assertEquals(expectedExit(i) + ":0", f.get("ExitCode"), "job " + i + " (" + id + ", ran at " + where + "): " + f);
        assertEquals("job " + i + " ran as " + home.get("user") + "\n", Files.readString(jobs.resolve(id + ".out")),
            "job " + i + " (" + id + ", ran at " + where + ") ran once, as the mapped account");
      }
      System.out.println("[e2e] Grid Engine site east (" + east + ") and HTCondor site central (" + central + "); where north's "
          + count + " jobs ran: " + ranAt);
      latencies.sort(Double::compare);
      System.out.printf("[e2e] publish-to-start latency at east and central over %d runs: p50 %.1f s, max %.1f s%n", latencies.size(),
          percentile(latencies, 0.50), latencies.isEmpty() ? 0 : latencies.get(latencies.size() - 1));
      assertEquals(count, ranAt.getOrDefault("east", 0) + ranAt.getOrDefault("central", 0), "every job ran at east or central: " + ranAt);
      assertTrue(ranAt.getOrDefault("east", 0) > 0 && ranAt.getOrDefault("central", 0) > 0, "both sites ran jobs: " + ranAt);
      assertEquals("COMPLETED", waitEnded(home, gpuJob, Duration.ofMinutes(2)).get("JobState"));
      assertEquals("ran with GPU CUDA0\n", Files.readString(jobs.resolve(gpuJob + ".out")), "it saw the HTCondor slot's GPU");
      System.out.println("[e2e] job " + gpuJob + " of a GPU ran at central (HTCondor, request_GPUs) and ended at north as it would there");
    } finally {
      Command.of(sge.tool("qdel"), "-u", sge.get("user")).run();
      Command.of(condor.tool("condor_rm"), "-all").run();
    }
  }

  /** A federation of {@code members} in a ZooKeeper server of its own; no daemon yet. */
  private void federation(List<String> members) throws Exception {
    fed = Federation.start(tmp, 1, members);
  }

  private static int executed(Map<String, JsonNode> rows) {
    return rows.get("south").path("jobsExecuted").asInt() + rows.get("west").path("jobsExecuted").asInt();
  }

  private static int expectedExit(int i) {
    return i % 5 == 4 ? 3 : 0;
  }

  /** How job {@code i} of the first test ends: as {@link #expectedExit}, but every seventh by its own SIGTERM. */
  private static ExitStatus expectedEnd(int i) {
    return i % 7 == 6 ? ExitStatus.killed(15) : ExitStatus.exited(expectedExit(i));
  }

  /** The state Slurm gives a batch job that ended so: COMPLETED for exit 0, FAILED otherwise (a signal included). */
  private static String slurmState(ExitStatus end) {
    return end.equals(ExitStatus.exited(0)) ? "COMPLETED" : "FAILED";
  }

  /** Slurm's ExitCode field: {@code code:signal}. */
  private static String slurmExitCode(ExitStatus end) {
    return end.exitCode() + ":" + end.signal();
  }

  static double percentile(List<Double> sorted, double q) {
    int rank = (int) Math.ceil(q * sorted.size());
    return sorted.get(Math.max(0, Math.min(sorted.size() - 1, rank - 1)));
  }

  /** The jar, copied where every cluster's node sees it at the same path (the chroot, south's, sees the testbed's run folder). */
  private Path nodeVisibleJar() throws IOException {
    return Federation.nodeVisibleJar(clusters.getOrDefault("south", clusters.get("north")));
  }

  private void startDaemon(String site, Path jar) throws IOException {
    startDaemon(site, jar, List.of(clusters.get(site)));
  }

  /** A daemon process for {@code site}, driving the Slurm clusters {@code systems} (one handler each, named after its cluster). */
  private void startDaemon(String site, Path jar, List<Instance> systems) throws IOException {
    Instance first = systems.get(0);
    String handlers = systems.stream().map(Federation::slurmHandler).collect(Collectors.joining());
    startDaemon(site, jar, handlers, poolAccount != null ? poolAccount : first.get("user"), first.get("partition"), Map.of());
  }

  /** The account foreign jobs run as where no identity domain maps their user (null: the testbed's user, as in most tests). */
  private String poolAccount;
  /** What a site's file says besides the rest (its identity domains). */
  private final Map<String, String> siteFileExtra = new HashMap<>();

  /** Where each job ran that was running when its executor's daemon restarted. */
  private final Map<String, String> executors = new TreeMap<>();

  /** The restarted daemon's account of what its journal held at the stop (PilotRecovery): how many pilots ran a claimed job. */
  private static final Pattern TOOK_BACK = Pattern.compile("took back \\d+ pending and (\\d+) running pilots from the journal");

  /**
   * Waits for one of north's jobs to run at {@code site}, stops its daemon (SIGKILL, or SIGTERM as
   * an upgrade does), starts it again and waits until it has taken its running pilots back. The
   * restart must have met a run: the daemon's journal held a pilot with a claimed job at the stop,
   * and the restarted daemon adopted a claim ({@code decision=adopt}); a stop that met only pending
   * pilots (the run seen starting ended meanwhile) fails, as it shows nothing taken back. The
   * jobs that were running there, with their release times.
   */
  private Map<String, Double> restartWhileRunning(String site, Path jar, List<String> ids, boolean kill) throws Exception {
    Map<String, Double> running = new TreeMap<>();
    // a run that has just begun, so that it is still running when the daemon stops: pilots run job after job, and one seen
    // running at any time may be about to end (seen in CI: the run ended during the stop, leaving nothing to take back)
    Set<String> seen = new HashSet<>();
    boolean[] first = {true};
    Eventually.waitFor(() -> "a job starting at " + site, Duration.ofMinutes(3), Duration.ofMillis(250), () -> {
      for (String id : ids) {
        JsonNode view = fed.job("north", id);
        if (site.equals(view.path("executor").asText()) && "running".equals(view.path("state").asText()) && seen.add(id) && !first[0]) {
          running.put(id, view.path("release").asDouble());
        }
      }
      first[0] = false;
      return !running.isEmpty();
    });
    // its user sees where it runs (issue #24): north's squeue shows the daemon's note in the job's comment
    Instance north = clusters.get("north");
    String shown = running.keySet().iterator().next();
    Eventually.waitFor(() -> "north's squeue to say job " + shown + " runs at " + site + "; shows '" + comment(north, shown) + "'",
        Duration.ofSeconds(30), Duration.ofSeconds(1), () -> comment(north, shown).startsWith("coalition: running at " + site + " since "));
    System.out.println("[e2e] squeue at north shows job " + shown + " as: " + comment(north, shown));
    Path log = Federation.log(site);
    long before = count(log, "running pilots from the journal");
    String adoption = "site=" + site + " decision=adopt ";
    long adoptionsBefore = count(log, adoption);
    int exit = fed.stop(site, kill);
    long stopped = System.nanoTime();
    System.out.println("[e2e] " + (kill ? "killed " + site + "'s daemon (SIGKILL)" : "stopped " + site + "'s daemon (SIGTERM, exit "
        + exit + ")") + " with jobs " + running.keySet() + " running there");
    Thread.sleep(3000);
    fed.restart(site);
    List<String> adopted = new ArrayList<>();
    Eventually.waitFor(site + "'s restarted daemon to take its running pilots back", Duration.ofSeconds(90), () -> {
      adopted.clear();
      try (var lines = Files.lines(log)) {
        lines.filter(l -> l.contains("running pilots from the journal")).skip(before).forEach(adopted::add);
      } catch (IOException e) {
        return false;
      }
      return !adopted.isEmpty();
    });
    Matcher tookBack = TOOK_BACK.matcher(adopted.get(0));
    assertTrue(tookBack.find() && Integer.parseInt(tookBack.group(1)) > 0, site + "'s daemon held a running claim when it was "
        + (kill ? "killed" : "stopped") + " (else the restart met no run and took nothing back): " + adopted.get(0));
    // adopted at once as a rule; one the store could not be asked about yet is adopted at the next round or the pilot's next call
    Eventually.waitFor(site + "'s restarted daemon to adopt a running pilot's claim (" + adoption + "in " + log + ")", Duration.ofSeconds(60),
        () -> count(log, adoption) > adoptionsBefore);
    System.out.printf("[e2e] %s's daemon back %.1f s after the stop: %s%n", site, (System.nanoTime() - stopped) / 1e9,
        adopted.get(0).substring(adopted.get(0).indexOf("took back")));
    running.keySet().forEach(id -> executors.put(id, site));
    return running;
  }

  /** How many lines of the daemon's log {@code log} hold {@code text}. */
  private static long count(Path log, String text) {
    try (var lines = Files.lines(log)) {
      return lines.filter(l -> l.contains(text)).count();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** As {@link Federation#startDaemon}, with what {@link #siteFileExtra} says of the site. */
  private void startDaemon(String site, Path jar, String handlers, String account, String partition, Map<String, String> environment)
      throws IOException {
    fed.startDaemon(site, jar, handlers, account, partition, environment, siteFileExtra.getOrDefault(site, ""));
  }

  private Map<String, JsonNode> ledger(String site) {
    Map<String, JsonNode> rows = new TreeMap<>();
    try {
      for (JsonNode row : fed.get(site, "v1/ledger").path("sites")) {
        rows.put(row.path("site").asText(), row);
      }
    } catch (IOException | InterruptedException e) {
      throw new AssertionError("ledger of " + site + ": " + e.getMessage(), e);
    }
    SITES.keySet().forEach(s -> rows.putIfAbsent(s, JSON.createObjectNode()));
    return rows;
  }

  /**
   * Each job's records in Slurm's accounting, requeued runs included ({@code sacct --duplicates}):
   * "STATE|EXIT:SIGNAL" per record, oldest first.
   */
  private static Map<String, List<String>> sacct(Instance slurm, List<String> ids) {
    Command.Result r = Command.of(slurm.tool("sacct"), "--duplicates", "-X", "-n", "-P", "--format=JobID,State,ExitCode", "-j",
        String.join(",", ids)).run().requireSuccess();
    Map<String, List<String>> out = new LinkedHashMap<>();
    for (String line : r.stdout().split("\n")) {
      String[] f = line.trim().split("\\|");
      if (f.length == 3) {
        out.computeIfAbsent(f[0], k -> new ArrayList<>()).add(f[1].split(" ")[0] + "|" + f[2]);
      }
    }
    return out;
  }

  /**
   * What replaying its remote runs cost north, from its accounting: every replayed job ran on one
   * core (shrunk before its release, whatever it asked for), and the core-seconds each held there.
   */
  private static void homeCostOfReplays(Instance north, List<String> replayed) {
    Command.Result r = Command.of(north.tool("sacct"), "-X", "-n", "-P", "--format=JobID,AllocCPUS,CPUTimeRAW", "-j",
        String.join(",", replayed)).run().requireSuccess();
    List<Double> coreSeconds = new ArrayList<>();
    for (String line : r.stdout().split("\n")) {
      String[] f = line.trim().split("\\|");
      if (f.length == 3) {
        assertEquals("1", f[1], "replayed job " + f[0] + " ran at north on one core, though it asked for 8: " + line);
        coreSeconds.add(Double.parseDouble(f[2]));
      }
    }
    assertEquals(replayed.size(), coreSeconds.size(), "sacct has each replayed job: " + r.stdout());
    coreSeconds.sort(Double::compare);
    System.out.printf("[e2e] home cost of a replay at north over %d replayed jobs (asked for 8 cores each): 1 core each; core-seconds"
        + " mean %.2f, p50 %.0f, max %.0f%n", coreSeconds.size(), coreSeconds.stream().mapToDouble(Double::doubleValue).average().orElse(0),
        percentile(coreSeconds, 0.5), coreSeconds.get(coreSeconds.size() - 1));
  }

  /**
   * Samples, once a second, whether a dependent job is in the federation (north's daemon knows it) while
   * its dependency has not ended in Slurm. The daemon is asked first: a job seen published and then a
   * dependency seen not ended means it was published before the end.
   */
  private final class ChainWatch {
    private final Instance slurm;
    private final String job;
    private final String dependency;
    private final List<String> violations = new CopyOnWriteArrayList<>(); // the first three
    private final AtomicInteger unready = new AtomicInteger();
    private final ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "chain-watch");
      t.setDaemon(true);
      return t;
    });

    ChainWatch(Instance slurm, String job, String dependency) {
      this.slurm = slurm;
      this.job = job;
      this.dependency = dependency;
    }

    void start() {
      sampler.scheduleWithFixedDelay(this::sample, 0, 1, TimeUnit.SECONDS);
    }

    private void sample() {
      try {
        JsonNode view = fed.jobOrNull("north", job);
        String state = fields(slurm, dependency).get("JobState");
        if (state == null || List.of("COMPLETED", "FAILED", "CANCELLED", "TIMEOUT").contains(state)) {
          return;
        }
        unready.incrementAndGet();
        if (view != null && violations.size() < 3) {
          violations.add("job " + job + " in the federation (" + view + ") while job " + dependency + " was " + state);
        }
      } catch (IOException | InterruptedException | RuntimeException e) {
        // north's daemon restarting or Slurm busy: no sample this second
      }
    }

    void stop() {
      sampler.shutdownNow();
    }

    int unreadySamples() {
      return unready.get();
    }

    List<String> violations() {
      return violations;
    }
  }

  /** A job's comment, as {@code squeue} shows it. */
  private static String comment(Instance slurm, String id) {
    return Command.of(slurm.tool("squeue"), "-h", "-t", "all", "-j", id, "-o", "%k").run().stdout().strip();
  }

  /** A job's fields once it ended (the last seen if it has not within {@code wait}). */
  private static Map<String, String> waitEnded(Instance slurm, String id, Duration wait) {
    Eventually.waitFor(() -> "job " + id + " to end; last seen " + fields(slurm, id), wait, Duration.ofSeconds(2),
        () -> Arrays.asList("COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "OUT_OF_MEMORY").contains(fields(slurm, id).get("JobState")));
    return fields(slurm, id);
  }

  /** A job's fields from {@code scontrol show job -o}. */
  private static Map<String, String> fields(Instance slurm, String id) {
    Command.Result r = Command.of(slurm.tool("scontrol"), "show", "job", "-o", id).run();
    Map<String, String> f = new HashMap<>();
    if (r.exitCode() == 0) {
      for (String word : r.stdout().trim().split(" ")) {
        int eq = word.indexOf('=');
        if (eq > 0) {
          f.put(word.substring(0, eq), word.substring(eq + 1));
        }
      }
    }
    return f;
  }

}
