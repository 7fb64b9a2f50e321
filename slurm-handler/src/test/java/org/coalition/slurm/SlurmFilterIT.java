package org.coalition.slurm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.coalition.handler.HandlerException;
import org.coalition.handler.HandlerException.Category;
import org.coalition.handler.HomeJob;
import org.coalition.handler.RemoteRun;
import org.coalition.job.JobLayout;
import org.coalition.testbed.Command;
import org.coalition.testbed.Eventually;
import org.coalition.testbed.Instance;
import org.coalition.testbed.Testbed;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * "sbatch as usual" on real Slurm 22.05 and 24.11: the testbed installs the project's
 * job_submit.lua with partition {@code federated} opted in (testbed/lib/slurm.sh). Jobs are
 * submitted with plain sbatch as an ordinary user; a wrapped job run at home must be
 * indistinguishable from an unwrapped one, and a replayed job must end as its remote run did.
 */
@Tag("testbed") // needs testbed/up's systems: .ci/run runs it once they are up
class SlurmFilterIT {
  private static final Duration JOB_WAIT = Duration.ofSeconds(90);
  /** A replayed timeout waits for the shrunk job's one-minute limit, which slurmctld checks every 30 s. */
  private static final Duration TIMEOUT_WAIT = Duration.ofSeconds(180);
  private static final Pattern FIELD = Pattern.compile("\\b(JobState|Reason|ExitCode|AdminComment)=(\\S*)");

  /** Scripts that exercise what a user can observe of a run: output, errors, exit, signals, environment. */
  private static final Map<String, String> SCRIPTS = new LinkedHashMap<>();

  static {
    SCRIPTS.put("bash-exit-3", """
        #!/bin/bash
        #SBATCH --job-name=same
        echo "status at start: $?"
        echo "args: $*"
        echo "cwd: $PWD"
        echo "stdin: $(cat)"
        echo "to stderr" >&2
        env | sort
        exit 3
        """);
    SCRIPTS.put("sh-errexit", """
        #!/bin/sh -e
        echo "before false"
        false
        echo "never printed"
        """);
    SCRIPTS.put("env-bash-nounset-trap", """
        #!/usr/bin/env bash
        set -u
        trap 'echo "exit trap ran"' EXIT
        echo "line: $LINENO"
        echo "$UNSET_VARIABLE"
        """);
    SCRIPTS.put("bash-raises-signal", """
        #!/bin/bash
        echo "before the signal"
        kill -TERM $$
        echo "after the signal"
        """);
  }

  static String sbatch(Instance slurm, String... args) {
    return Command.of(slurm.tool("sbatch"), args).asUser(slurm.get("user")).run().requireSuccess().stdout().trim();
  }

  /** JobState, Reason, ExitCode and AdminComment as scontrol shows them. */
  static Map<String, String> fields(Instance slurm, String id) {
    Matcher m = FIELD.matcher(SlurmHandlerIT.run(slurm, "scontrol", "show", "job", "-o", id));
    Map<String, String> fields = new LinkedHashMap<>();
    while (m.find()) {
      fields.put(m.group(1), m.group(2));
    }
    fields.putIfAbsent("AdminComment", "");  // scontrol leaves out an empty one
    return fields;
  }

  /** A job's comment, as {@code squeue} shows it. */
  static String comment(Instance slurm, String id) {
    return SlurmHandlerIT.run(slurm, "squeue", "-h", "-j", id, "-o", "%k").strip();
  }

  static Map<String, String> waitEnded(Instance slurm, String id) {
    return waitEnded(slurm, id, JOB_WAIT);
  }

  static Map<String, String> waitEnded(Instance slurm, String id, Duration wait) {
    Eventually.waitFor(() -> "job " + id + " to end on " + slurm.name() + "; last seen " + fields(slurm, id), wait,
        SlurmHandlerIT.POLL, () -> List.of("COMPLETED", "FAILED", "CANCELLED", "TIMEOUT").contains(fields(slurm, id).get("JobState")));
    return fields(slurm, id);
  }

  /** A fresh folder the test's ordinary user can read and write, for scripts and output. */
  static Path jobDir(Instance slurm, String prefix) throws IOException {
    Path dir = Files.createTempDirectory(slurm.path("jobs.dir"), prefix + "-");
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
    return dir;
  }

  static Path write(Path dir, String name, String text) throws IOException {
    Path file = dir.resolve(name);
    Files.writeString(file, text);
    return file;
  }

  /** What a job wrote, with what must differ between two jobs (ids, partition, times, pids) masked. */
  static String masked(Path file, String id, String partition) throws IOException {
    StringBuilder out = new StringBuilder();
    for (String line : Files.readAllLines(file)) {
      if (line.matches("SLURM_(TASK_PID|JOB_START_TIME|JOB_END_TIME)=.*")) {
        continue;
      }
      out.append(line.replace(id, "<id>").replace("=" + partition, "=<partition>")).append('\n');
    }
    return out.toString();
  }

  /** A handler for a test target ({@code slurm24-c1@v0.0.40} pins a version) that knows the results folder and scontrol. */
  static SlurmHandler handler(String target) {
    Instance slurm = SlurmHandlerIT.instance(target);
    return SlurmHandler.connect(SlurmHandlerIT.pinned(target, SlurmHandlerIT.config(slurm)).withResults(slurm.path("results.dir"))
        .withScontrol(List.of(slurm.tool("scontrol").toString())));
  }

  @ParameterizedTest
  @ValueSource(strings = {"slurm22-c1", "slurm24-c1"})
  void aWrappedJobRunAtHomeBehavesExactlyLikeAnUnwrappedOne(String name) throws IOException {
    Instance slurm = Testbed.require(name);
    Path dir = jobDir(slurm, "filter");
    List<String[]> pairs = new ArrayList<>();
    for (var script : SCRIPTS.entrySet()) {
      Path file = write(dir, script.getKey() + ".sh", script.getValue());
      String[] ids = new String[2];
      int k = 0;
      for (String partition : List.of(slurm.get("partition"), slurm.get("federated.partition"))) {
        ids[k++] = sbatch(slurm, "--parsable", "-p", partition, "-D", dir.toString(), "-o", dir + "/%j.out", "-e", dir + "/%j.err",
            file.toString(), "first arg", "second");
      }
      pairs.add(new String[] {script.getKey(), ids[0], ids[1]});
    }
    for (String[] pair : pairs) {
      String script = pair[0];
      Map<String, String> plain = waitEnded(slurm, pair[1]);
      Map<String, String> wrapped = waitEnded(slurm, pair[2]);
      assertEquals("", plain.get("AdminComment"), script + ": a job outside opted-in partitions is not marked");
      assertEquals(SlurmJob.MARK, wrapped.get("AdminComment"), script + ": an opted-in job is marked");
      plain.remove("AdminComment");
      wrapped.remove("AdminComment");
      assertEquals(plain, wrapped, script + ": state, reason and exit code");
      for (String stream : List.of(".out", ".err")) {
        assertEquals(masked(dir.resolve(pair[1] + stream), pair[1], slurm.get("partition")),
            masked(dir.resolve(pair[2] + stream), pair[2], slurm.get("federated.partition")), script + ": " + stream);
      }
      String script2 = SlurmHandlerIT.run(slurm, "scontrol", "write", "batch_script", pair[2], "-");
      assertTrue(script2.lines().skip(1).findFirst().orElse("").contains("coalition-replay"), script + " is wrapped:\n" + script2);
      System.out.printf("[filter] %s %s: wrapped job %s and plain job %s ended alike: %s%n", name, script, pair[2], pair[1], wrapped);
    }
    String bashOut = Files.readString(dir.resolve(pairs.get(0)[2] + ".out"));
    assertTrue(bashOut.contains("status at start: 0\nargs: first arg second\n"), bashOut);
  }

  @ParameterizedTest
  @ValueSource(strings = {"slurm22-c1", "slurm24-c1"})
  void jobsNotOptedInOrNotShellScriptsStayHomeUntouched(String name) throws IOException {
    Instance slurm = Testbed.require(name);
    Path dir = jobDir(slurm, "perl");
    Path file = write(dir, "job.pl", "#!/usr/bin/perl\nprint \"perl ran: @ARGV\\n\";\n");
    Command.Result submitted = Command.of(slurm.tool("sbatch"), "--parsable", "-p", slurm.get("federated.partition"),
        "-o", dir + "/%j.out", file.toString(), "x").asUser(slurm.get("user")).run().requireSuccess();
    assertTrue(submitted.stderr().contains("only sh-family scripts"), submitted.stderr());
    String id = submitted.stdout().trim();
    Map<String, String> ended = waitEnded(slurm, id);
    assertEquals("COMPLETED", ended.get("JobState"));
    assertEquals("", ended.get("AdminComment"));
    assertEquals("perl ran: x\n", Files.readString(dir.resolve(id + ".out")));

    // Without -p the job goes to the default partition (batch, not opted in): the filter finds
    // which one that is and leaves the job alone.
    String plain = sbatch(slurm, "--parsable", "-o", dir + "/%j.out", "--wrap", "echo default partition");
    Map<String, String> home = waitEnded(slurm, plain);
    assertEquals("COMPLETED", home.get("JobState"));
    assertEquals("", home.get("AdminComment"));
    assertFalse(SlurmHandlerIT.run(slurm, "scontrol", "write", "batch_script", plain, "-").contains("coalition-replay"));

    // An array that limits how many of its tasks run at once stays home whole: runs elsewhere would not count against
    // the limit (arrays the filter opts in: SlurmArrayIT)
    Command.Result array = Command.of(slurm.tool("sbatch"), "--parsable", "-p", slurm.get("federated.partition"), "-a", "0-2%2",
        "-o", dir + "/%A_%a.out", "--wrap", "echo task $SLURM_ARRAY_TASK_ID").asUser(slurm.get("user")).run().requireSuccess();
    assertTrue(array.stderr().contains("this array job stays at this site: it limits how many of its tasks run at once (0-2%2)"),
        array.stderr());
    String arrayId = array.stdout().trim();
    for (int task = 0; task < 3; task++) {
      Map<String, String> t = waitEnded(slurm, arrayId + "_" + task);
      assertEquals("COMPLETED", t.get("JobState"), "task " + task + ": " + t);
      assertEquals("", t.get("AdminComment"), "task " + task + " is not opted in: " + t);
      assertEquals("task " + task + "\n", Files.readString(dir.resolve(arrayId + "_" + task + ".out")));
    }
    // An array marked by a filter from before arrays federated (here root marks it), which does not name the array, is not
    // taken by the daemon: every task would replay one run.
    String marked = sbatch(slurm, "--parsable", "-H", "-p", slurm.get("partition"), "-a", "0-2", "-o", "/dev/null", "--wrap", "echo");
    SlurmHandlerIT.run(slurm, "scontrol", "update", "jobid=" + marked, "AdminComment=" + SlurmJob.MARK);
    try (SlurmHandler handler = handler(name)) {
      handler.observe();
      assertTrue(handler.federable().stream().noneMatch(j -> j.id().startsWith(marked)), "array " + marked + " is not federable: "
          + handler.federable());
    } finally {
      SlurmHandlerIT.run(slurm, "scancel", marked);
    }

    // Nodes, tasks and GRES per node travel (docs/jobs.md, "Nodes, tasks and GPUs"): a two-node job and, where the cluster has a
    // GPU, a job of a GPU are opted in and listed with their layouts, which the daemon publishes and an executor offers for
    // only where its nodes hold them.
    int gpus = Integer.parseInt(slurm.get("gpus"));
    List<String> travel = new ArrayList<>(List.of(sbatch(slurm, "--parsable", "-H", "-p", slurm.get("federated.partition"), "-N", "2",
        "--ntasks-per-node=1", "-o", "/dev/null", "--wrap", "srun hostname")));
    if (gpus > 0) {
      travel.add(sbatch(slurm, "--parsable", "-H", "-p", slurm.get("federated.partition"), "--gres=gpu:1", "-n", "2", "-o", "/dev/null",
          "--wrap", "srun hostname"));
    }
    try (SlurmHandler handler = handler(name)) {
      handler.observe();
      List<JobLayout> layouts = new ArrayList<>();
      for (String t : travel) {
        assertEquals(SlurmJob.MARK, fields(slurm, t).get("AdminComment"), t);
        HomeJob listed = handler.federable().stream().filter(j -> j.id().equals(t)).findFirst().orElseThrow();
        assertEquals("", listed.staysHome(), t);
        assertEquals(2, listed.cpus(), t);
        layouts.add(listed.layout());
      }
      assertEquals(gpus > 0 ? List.of(new JobLayout(2, 2, Map.of()), new JobLayout(1, 2, Map.of("gpu", 1)))
          : List.of(new JobLayout(2, 2, Map.of())), layouts);
    } finally {
      travel.forEach(t -> SlurmHandlerIT.run(slurm, "scancel", t));
    }
    // A GPU per task cannot be asked for elsewhere as it is (a pilot asks per node): the filter leaves it unmarked and says
    // how to ask instead, and one an older filter marked is listed with the reason, which the daemon notes instead of
    // publishing it. A cluster without GPUs refuses the job itself.
    if (gpus > 0) {
      Command.Result perTask = Command.of(slurm.tool("sbatch"), "--parsable", "-H", "-p", slurm.get("federated.partition"), "-n", "1",
          "--gpus-per-task=1", "-o", "/dev/null", "--wrap", "true").asUser(slurm.get("user")).run().requireSuccess();
      String gpuPerTask = perTask.stdout().trim();
      try {
        String why = "it asks for gpu:1 per task; ask for it per node (--gres) to run elsewhere";
        assertTrue(perTask.stderr().contains("this job stays at this site: " + why), perTask.stderr());
        assertEquals("", fields(slurm, gpuPerTask).get("AdminComment"));
        SlurmHandlerIT.run(slurm, "scontrol", "update", "jobid=" + gpuPerTask, "AdminComment=" + SlurmJob.MARK);
        try (SlurmHandler handler = handler(name)) {
          handler.observe();
          HomeJob listed = handler.federable().stream().filter(j -> j.id().equals(gpuPerTask)).findFirst().orElseThrow();
          assertEquals(why, listed.staysHome());
        }
      } finally {
        SlurmHandlerIT.run(slurm, "scancel", gpuPerTask);
      }
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"slurm22-c1", "slurm24-c1", "slurm24-c1@v0.0.40"})
  void aReplayedJobEndsAsItsRemoteRunAndDependenciesFollow(String name) throws IOException {
    Instance slurm = SlurmHandlerIT.instance(name);
    Path dir = jobDir(slurm, "replay");
    Path file = write(dir, "job.sh", "#!/bin/bash\necho 'ran at home: the replay did not happen'\nexit 42\n");
    String federated = slurm.get("federated.partition");
    int cpus = Integer.parseInt(slurm.get("cpus"));
    try (SlurmHandler handler = handler(name)) {
      // Every core but two and an eighth of the memory are busy for the whole test: a replayed job
      // asked for all the cores and most of the memory, and it replays only because the daemon
      // shrinks it to one core and 64 MiB first ("replay in a second"). Each job names its memory:
      // the testbed's clusters have no DefMemPerCPU, so a job without one takes the node's whole memory.
      String blocker = sbatch(slurm, "--parsable", "-p", slurm.get("partition"), "-c", Integer.toString(cpus - 2), "--mem=1000",
          "-o", "/dev/null", "--wrap", "sleep 900");
      // A case without a remote run is a withdrawn claim: unparked, the job runs at home after all (on one core).
      record Case(RemoteRun run, String state, String exitCode, boolean dependentRuns) {
        String expectedOutput() {
          return run == null ? "ran at home: the replay did not happen\n" : new String(run.stdout()) + new String(run.stderr());
        }

        String describe() {
          return run == null ? "unparked" : "replayed " + run.statusLine().trim();
        }
      }
      List<Case> cases = new ArrayList<>(List.of(
          new Case(RemoteRun.exited("remote out\n", "remote err\n", 0), "COMPLETED", "0:0", true),
          new Case(RemoteRun.exited("", "remote failure\n", 2), "FAILED", "2:0", false),
          new Case(RemoteRun.killed("killed remotely\n", "", 15), "FAILED", "0:15", false),
          new Case(null, "FAILED", "42:0", false)));
      if (!name.contains("@")) {
        // A run stopped at its limit replays as TIMEOUT at the shrunk job's one minute: once per Slurm
        // release (the script's wait is the same whatever REST version shrank the job).
        cases.add(new Case(RemoteRun.timedOut("stopped at its limit remotely\n", "", 0, 15), "TIMEOUT", "0:15", false));
      }
      List<String[]> submitted = new ArrayList<>();
      Map<String, Long> memory = new LinkedHashMap<>(); // job -> the MiB it asked for on its node
      for (Case c : cases) {
        // Held at submission: the test's idle node would start it before the daemon could park it
        // (park then fails, REJECTED "RUNNING, not pending", as a claim of a started job must).
        boolean replayed = c.run() != null;
        // one asks per CPU (8 x 900 MiB): the daemon reads it as 7200 MiB on its node
        int index = submitted.size();
        boolean perCpu = index == 1;
        String id = sbatch(slurm, "--parsable", "-H", "-p", federated, "-c", replayed ? Integer.toString(cpus) : "1",
            perCpu ? "--mem-per-cpu=900" : "--mem=" + (replayed ? "7500" : "100"), "-t", "30", "--comment=my run " + index,
            "-o", dir + "/%j.out", file.toString());
        memory.put(id, perCpu ? 900L * cpus : replayed ? 7500 : 100);
        String dependent = sbatch(slurm, "--parsable", "-p", slurm.get("partition"), "--mem=100", "--dependency=afterok:" + id,
            "-o", dir + "/%j.out", "--wrap", "echo dependent ran");
        submitted.add(new String[] {id, dependent});
        handler.park(id);
        // the user sees where the job is, before their own comment, which stays
        handler.note(id, "running at elsewhere since a moment");
        assertEquals("coalition: running at elsewhere since a moment | my run " + index, comment(slurm, id));
        // What another site runs: the script as written, without the filter's statement.
        assertEquals(Files.readString(file), handler.payload(id), "payload of job " + id);
      }
      handler.observe();
      List<String> federable = handler.federable().stream().map(HomeJob::id).toList();
      for (String[] ids : submitted) {
        assertTrue(federable.contains(ids[0]), "parked job " + ids[0] + " is listed as federable: " + federable);
        HomeJob job = handler.federable().stream().filter(j -> j.id().equals(ids[0])).findFirst().orElseThrow();
        assertEquals(slurm.get("user"), job.user());
        assertEquals(federated, job.partition());
        assertEquals(memory.get(ids[0]), job.memoryMb(), "memory of job " + ids[0]);
      }
      for (int i = 0; i < cases.size(); i++) {
        if (cases.get(i).run() == null) {
          handler.unpark(submitted.get(i)[0]);
          assertEquals("my run " + i, comment(slurm, submitted.get(i)[0]), "unparked, it runs here: the note goes, the user's comment stays");
        } else {
          handler.replay(submitted.get(i)[0], cases.get(i).run());
        }
      }
      for (int i = 0; i < cases.size(); i++) {
        Case c = cases.get(i);
        String id = submitted.get(i)[0];
        Map<String, String> ended = waitEnded(slurm, id, c.state().equals("TIMEOUT") ? TIMEOUT_WAIT : JOB_WAIT);
        assertEquals("RUNNING", fields(slurm, blocker).get("JobState"), "the replays did not wait for the blocker's cores");
        assertEquals(c.state(), ended.get("JobState"), c.describe() + " job " + id + ": " + ended);
        assertEquals(c.exitCode(), ended.get("ExitCode"), c.describe() + " job " + id + ": " + ended);
        String output = Files.readString(dir.resolve(id + ".out"));
        if (c.state().equals("TIMEOUT")) {
          // slurmstepd adds its own line, as it does to a job that times out at home
          assertTrue(output.startsWith(c.expectedOutput()) && output.contains("DUE TO TIME LIMIT"), "output of job " + id + ":\n" + output);
        } else {
          assertEquals(c.expectedOutput(), output);
        }
        String dependent = submitted.get(i)[1];
        if (c.dependentRuns()) {
          assertEquals("COMPLETED", waitEnded(slurm, dependent).get("JobState"));
          assertEquals("dependent ran\n", Files.readString(dir.resolve(dependent + ".out")));
        } else {
          Eventually.waitFor(() -> "dependent " + dependent + " to be found never satisfied: " + fields(slurm, dependent), JOB_WAIT,
              SlurmHandlerIT.POLL, () -> "DependencyNeverSatisfied".equals(fields(slurm, dependent).get("Reason")));
        }
        System.out.printf("[filter] %s: %s job %s: %s; afterok dependent %s%n", name, c.describe(), id, ended,
            fields(slurm, dependent));
      }
      // Results of ended jobs are swept by the next observation.
      handler.observe();
      for (String[] ids : submitted) {
        assertFalse(Files.exists(slurm.path("results.dir").resolve(ids[0])), "result of ended job " + ids[0] + " is swept");
      }
    } finally {
      SlurmHandlerIT.emptyQueue(slurm);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"slurm22-c1", "slurm24-c1", "slurm24-c1@v0.0.40"})
  void onlyOptedInPendingJobsReplayAndAResultNotTheUsersIsRefused(String name) throws IOException {
    Instance slurm = SlurmHandlerIT.instance(name);
    Path dir = jobDir(slurm, "refuse");
    Path file = write(dir, "job.sh", "#!/bin/bash\necho ran\n");
    Path results = slurm.path("results.dir");
    try (SlurmHandler handler = handler(name)) {
      String plain = sbatch(slurm, "--parsable", "-H", "-p", slurm.get("partition"), "-o", dir + "/%j.out", file.toString());
      HandlerException notOptedIn = assertThrows(HandlerException.class, () -> handler.replay(plain, RemoteRun.exited("x", "", 0)));
      assertEquals(Category.REJECTED, notOptedIn.category());
      assertTrue(notOptedIn.getMessage().contains("not opted in"), notOptedIn.getMessage());
      assertFalse(Files.exists(results.resolve(plain)), "nothing written for a job that was not opted in");
      assertEquals(Category.NOT_FOUND, assertThrows(HandlerException.class, () -> handler.park("999999999")).category());
      assertEquals(Category.REJECTED, assertThrows(HandlerException.class, () -> handler.payload(plain)).category());

      // A result the job's user does not own (here root's) is never replayed: the job fails and says why.
      String wrapped = sbatch(slurm, "--parsable", "-H", "-p", slurm.get("federated.partition"), "-o", dir + "/%j.out", file.toString());
      Path planted = Files.createDirectory(results.resolve(wrapped));
      Files.writeString(planted.resolve("stdout"), "forged\n");
      Files.writeString(planted.resolve("stderr"), "");
      Files.writeString(planted.resolve("status"), "exit 0\n");
      SlurmHandlerIT.run(slurm, "scontrol", "release", wrapped);
      Map<String, String> ended = waitEnded(slurm, wrapped);
      assertEquals("FAILED", ended.get("JobState"), ended.toString());
      assertEquals("1:0", ended.get("ExitCode"), ended.toString());
      String out = Files.readString(dir.resolve(wrapped + ".out"));
      assertFalse(out.contains("forged"), out);
      assertTrue(out.contains("does not belong to " + slurm.get("user")), out);
      HandlerException over = assertThrows(HandlerException.class, () -> handler.replay(wrapped, RemoteRun.exited("x", "", 0)));
      assertTrue(over.getMessage().contains("not pending"), over.getMessage());
      handler.observe();
      assertFalse(Files.exists(planted), "the planted result of an ended job is swept");
    } finally {
      SlurmHandlerIT.emptyQueue(slurm);
    }
  }
}
