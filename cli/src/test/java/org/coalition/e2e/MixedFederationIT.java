package org.coalition.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.coalition.testbed.Command;
import org.coalition.testbed.Eventually;
import org.coalition.testbed.Instance;
import org.coalition.testbed.Testbed;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue #50's mixed federation on the testbed's real systems: an HTCondor pool (central) and a Grid
 * Engine cell (east), each a home, and a Slurm cluster (north). Each home's users submit with their
 * own command while their system is full; their opted-in jobs run at the other two kinds of site and
 * end once in their own queue, with the remote run's exit code in their system's own record
 * ({@code condor_history}, {@code qacct -j}) and its output in their own files, through a daemon
 * killed (SIGKILL) while it runs one of them and a restart of the ZooKeeper leader. Slurm's users'
 * jobs at the other two are {@link SlurmFederationIT}'s. Prints each home's publish-to-start
 * latency ({@code [e2e]} lines).
 */
@Tag("testbed") // needs testbed/up's systems: .ci/run runs it once they are up
class MixedFederationIT {
  private static final int JOBS = 6;
  private static final int CORES = 2;
  // long enough that north, whose pilots take job after job, has not run all six before a Grid Engine or HTCondor pilot starts
  private static final int JOB_SECONDS = 10;
  private static final Pattern EXIT_STATUS = Pattern.compile("(?m)^exit_status\\s+(\\d+)\\s*$");

  @TempDir Path tmp;
  private Federation fed;
  private final Instance north = Testbed.require("slurm22-c1");
  private final Instance condor = Testbed.require("condor");
  private final Instance sge = Testbed.require("sge");

  @AfterEach
  void stop() throws IOException {
    if (fed != null) {
      fed.close();
    }
    Command.of(condor.tool("condor_rm"), "-all").run();
    Command.of(sge.tool("qdel"), "-u", sge.get("user")).run();
    Command.of(north.tool("scancel"), "-u", north.get("user")).run();
  }

  @Test
  void htcondorAndGridEngineUsersJobsRunAtTheOtherKindsAndEndOnceInTheirOwnQueueThroughFaults() throws Exception {
    List<String> members = List.of("central", "east", "north");
    fed = Federation.start(tmp, 3, members);
    Path jar = Federation.nodeVisibleJar(condor);
    Path condorJobs = folder(condor, "e2e-mixed-condor");
    // central's results folder (root's, 711) and replay program, where the pool's jobs see them (the chroot shares the jobs folder)
    Path results = Files.createDirectory(condorJobs.resolve("results"));
    Files.setPosixFilePermissions(results, PosixFilePermissions.fromString("rwx--x--x"));
    Path replay = condorJobs.resolve("coalition-replay");
    Files.copy(Path.of("..", "slurm-handler", "src", "main", "slurm", "coalition-replay"), replay);
    Files.setPosixFilePermissions(replay, PosixFilePermissions.fromString("rwxr-xr-x"));
    fed.startDaemon("north", jar, Federation.slurmHandler(north), north.get("user"), north.get("partition"), Map.of(), "");
    fed.startDaemon("central", jar, String.format("""
          - type: htcondor
            bin: %s
            as-user: [env, "COALITION_TESTBED_USER={user}"]
            results: %s
            replay: %s
        """, condor.path("bin"), results, replay), condor.get("user"), "", Map.of(), "");
    fed.startDaemon("east", jar, Federation.gridEngineHandler(sge), sge.get("user"), "", Federation.gridEngineEnvironment(sge), "");
    fed.awaitLive(members);
    // a job of north's own holds half its cores, so that it does not take every job before the Grid Engine and HTCondor sites
    // start a pilot (a site lends while it is less busy than its exposure threshold, 0.7 here)
    Users.sbatch(north, "--parsable", "-p", north.get("partition"), "-c", Integer.toString(Integer.parseInt(north.get("cpus")) / 2), "--mem=100M",
        "-t", "30", "-o", "/dev/null", "--wrap", "sleep 1800"); // its memory too: a job that names none takes the node's

    // 1. central's pool is full: its users' jobs run at north and east; east's daemon is killed while it runs one.
    String condorOccupier = Users.condorSubmit(condor, String.join("\n", "executable = /bin/sleep", "arguments = 1800",
        "transfer_executable = false", "initialdir = " + condorJobs, "should_transfer_files = NO", "request_cpus = " + condor.get("cpus"), "queue", ""));
    // each job names its memory (100 MB): a Slurm pilot for a job that names none takes the site's default, on the testbed the node's
    Map<String, Integer> condorIds = new LinkedHashMap<>(); // job -> its exit code
    for (int i = 0; i < JOBS; i++) {
      Path script = script(condorJobs, i);
      String id = Users.condorSubmit(condor, String.join("\n", "executable = " + script, "initialdir = " + condorJobs,
          "output = " + condorJobs.resolve("out." + i), "error = " + condorJobs.resolve("err." + i), "should_transfer_files = NO",
          "request_cpus = " + CORES, "request_memory = 100", "+CoalitionFederate = true", "queue", ""));
      condorIds.put(id, exitCode(i));
    }
    killWhileRunning("east", "central", condorIds.keySet());
    awaitReplayed("central", condorIds.keySet());
    Command.of(condor.tool("condor_rm"), condorOccupier).run().requireSuccess(); // the replays wait for a core at home
    Map<String, String> condorRanAt = new TreeMap<>();
    int i = 0;
    for (Map.Entry<String, Integer> job : condorIds.entrySet()) {
      String id = job.getKey();
      Eventually.waitFor(() -> "job " + id + " to end in central's HTCondor history", Duration.ofMinutes(2), Duration.ofSeconds(2),
          () -> !Users.condorHistory(condor, id).isBlank());
      String where = fed.job("central", id).path("executor").asText();
      condorRanAt.put(id, where);
      List<String> records = Users.condorHistory(condor, id).strip().lines().toList();
      assertEquals(1, records.size(), "job " + id + " (ran at " + where + ") ended once: " + records);
      String[] ended = records.get(0).split(" ", 3);
      assertEquals(Integer.toString(job.getValue()), ended[0], "condor_history has the run's exit code, job " + id + " at " + where);
      assertEquals("false", ended[1], "job " + id + " was not ended by a signal");
      assertTrue(ended[2].contains(where), "CoalitionWhere names where job " + id + " ran (" + where + "): " + ended[2]);
      assertOutputs(condorJobs, i++, id, condor.get("user"));
    }
    assertRanAtBoth("central's (HTCondor)", condorRanAt, "north", "east");

    // 2. east's cell is full: its users' jobs run at north and central; the ZooKeeper leader restarts while they run.
    Path sgeJobs = folder(sge, "e2e-mixed-sge");
    String sgeOccupier = Users.qsub(sge, "-b", "y", "-pe", sge.get("pe"), sge.get("slots"), "-o", "/dev/null", "-e", "/dev/null", "/bin/sleep",
        "1800");
    Eventually.waitFor(() -> "the occupier " + sgeOccupier + " to run", Duration.ofMinutes(1), Duration.ofSeconds(1),
        () -> Command.of(sge.tool("qstat"), "-s", "r", "-u", "*").run().requireSuccess().stdout().contains(sgeOccupier + " "));
    Map<String, Integer> sgeIds = new LinkedHashMap<>();
    for (int j = 0; j < JOBS; j++) {
      Path script = script(sgeJobs, j);
      sgeIds.put(Users.qsub(sge, "-wd", sgeJobs.toString(), "-o", sgeJobs.resolve("out." + j).toString(), "-e", sgeJobs.resolve("err." + j)
          .toString(), "-pe", sge.get("pe"), Integer.toString(CORES), "-l", "mem_free=100M", "-ac", "COALITION_FEDERATE=1", script.toString()),
          exitCode(j));
    }
    Eventually.waitFor(() -> "one of east's jobs to run elsewhere", Duration.ofMinutes(3), Duration.ofMillis(500),
        () -> sgeIds.keySet().stream().anyMatch(id -> "running".equals(fed.job("east", id).path("state").asText())));
    System.out.println("[e2e] restarted the ZooKeeper leader, server " + fed.zk().restartLeader() + ", while east's jobs ran elsewhere");
    awaitReplayed("east", sgeIds.keySet());
    String first = sgeIds.keySet().iterator().next();
    String context = Command.of(sge.tool("qstat"), "-j", first).run().requireSuccess().stdout().lines().filter(l -> l.startsWith("context:"))
        .findFirst().orElse("");
    assertTrue(context.contains("COALITION_WHERE=") && context.contains(fed.job("east", first).path("executor").asText()),
        "qstat -j tells where job " + first + " ran: " + context);
    Command.of(sge.tool("qdel"), sgeOccupier).run().requireSuccess(); // the replays wait for a slot at home
    Map<String, String> sgeRanAt = new TreeMap<>();
    int j = 0;
    for (Map.Entry<String, Integer> job : sgeIds.entrySet()) {
      String id = job.getKey();
      Eventually.waitFor(() -> "job " + id + " in east's accounting (qacct -j)", Duration.ofMinutes(2), Duration.ofSeconds(2),
          () -> EXIT_STATUS.matcher(Command.of(sge.tool("qacct"), "-j", id).run().stdout()).find());
      String where = fed.job("east", id).path("executor").asText();
      sgeRanAt.put(id, where);
      List<String> records = new ArrayList<>();
      Matcher m = EXIT_STATUS.matcher(Command.of(sge.tool("qacct"), "-j", id).run().requireSuccess().stdout());
      while (m.find()) {
        records.add(m.group(1));
      }
      assertEquals(List.of(Integer.toString(job.getValue())), records, "qacct -j has one record of job " + id + ", the run's at " + where);
      assertOutputs(sgeJobs, j++, id, sge.get("user"));
    }
    assertRanAtBoth("east's (Grid Engine)", sgeRanAt, "north", "central");
    latency("central (HTCondor)", "central", condorIds.keySet());
    latency("east (Grid Engine)", "east", sgeIds.keySet());
  }

  /** A world-writable folder of the instance's shared jobs folder. */
  private static Path folder(Instance instance, String name) throws IOException {
    Path dir = Files.createDirectories(instance.path("jobs.dir").resolve(name + "-" + System.nanoTime()));
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
    return dir;
  }

  /** Job {@code i}'s script: it runs a few seconds, writes to both files and exits with {@link #exitCode}. */
  private static Path script(Path dir, int i) throws IOException {
    Path script = Files.writeString(dir.resolve("job" + i + ".sh"), "#!/bin/sh\nsleep " + JOB_SECONDS + "\necho \"job " + i + " ran as $(id -un)\"\n"
        + "echo \"job " + i + " errors\" >&2\nexit " + exitCode(i) + "\n");
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    return script;
  }

  private static int exitCode(int i) {
    return i % 3 == 2 ? 3 : 0;
  }

  /** Job {@code i}'s output and error files hold its run's lines, once, written as {@code user}. */
  private static void assertOutputs(Path dir, int i, String id, String user) throws IOException {
    assertEquals("job " + i + " ran as " + user + "\n", Files.readString(dir.resolve("out." + i)), "job " + id + "'s output, once");
    assertEquals("job " + i + " errors\n", Files.readString(dir.resolve("err." + i)), "job " + id + "'s errors, once");
  }

  /** Prints where a home's jobs ran, and checks that both other kinds of site ran some. */
  private static void assertRanAtBoth(String home, Map<String, String> ranAt, String one, String other) {
    System.out.println("[e2e] where " + home + " " + ranAt.size() + " jobs ran: " + ranAt);
    assertTrue(ranAt.containsValue(one) && ranAt.containsValue(other), home + " jobs ran at both " + one + " and " + other + ": " + ranAt);
  }

  /** Waits for one of {@code home}'s jobs to run at {@code site}, kills that site's daemon (SIGKILL) and starts it again. */
  private void killWhileRunning(String site, String home, Iterable<String> ids) throws Exception {
    List<String> running = new ArrayList<>();
    Eventually.waitFor(() -> "one of " + home + "'s jobs to run at " + site, Duration.ofMinutes(3), Duration.ofMillis(250), () -> {
      for (String id : ids) {
        JsonNode view = fed.job(home, id);
        if (site.equals(view.path("executor").asText()) && "running".equals(view.path("state").asText())) {
          running.add(id);
        }
      }
      return !running.isEmpty();
    });
    fed.stop(site, true);
    System.out.println("[e2e] killed " + site + "'s daemon (SIGKILL) with " + home + "'s jobs " + running + " running there");
    Thread.sleep(3000);
    fed.restart(site);
    fed.awaitLive(List.of(site));
  }

  /** Waits until each of {@code home}'s jobs has run elsewhere and been handed back for its replay. */
  private void awaitReplayed(String home, Iterable<String> ids) {
    Map<String, String> states = new TreeMap<>();
    Eventually.waitFor(() -> "every job of " + home + " to run elsewhere and come back; states: " + states, Duration.ofMinutes(5),
        Duration.ofSeconds(2), () -> {
          ids.forEach(id -> states.put(id, fed.job(home, id).path("state").asText("not published")));
          return states.values().stream().allMatch("replayed"::equals);
        });
  }

  /** Prints the publish-to-start latency of {@code home}'s jobs (their release to the start of their run elsewhere). */
  private void latency(String label, String home, Iterable<String> ids) {
    List<Double> latencies = new ArrayList<>();
    for (String id : ids) {
      JsonNode view = fed.job(home, id);
      latencies.add(view.path("start").asDouble() - view.path("release").asDouble());
    }
    latencies.sort(Double::compare);
    System.out.printf("[e2e] publish-to-start latency of %s's jobs over %d runs elsewhere: p50 %.1f s, p99 %.1f s, max %.1f s%n", label,
        latencies.size(), SlurmFederationIT.percentile(latencies, 0.50), SlurmFederationIT.percentile(latencies, 0.99),
        latencies.get(latencies.size() - 1));
  }
}
