package org.coalition.condor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.coalition.handler.HomeQueue;
import org.coalition.handler.HomeQueueContract;
import org.coalition.testbed.Command;
import org.coalition.testbed.Eventually;
import org.coalition.testbed.Instance;
import org.coalition.testbed.Testbed;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The home side's shared contract ({@link HomeQueueContract}) on the testbed's HTCondor 23.9 pool:
 * its user's opted-in jobs parked with Coalition's hold and replayed by {@code coalition-replay},
 * the program the Debian package installs, run by HTCondor as the user's own job.
 */
@Tag("testbed") // needs testbed/up's systems: .ci/run runs it once they are up
class CondorHomeContractIT extends HomeQueueContract {
  private final Instance condor = Testbed.require("condor");
  private final AtomicInteger submitted = new AtomicInteger();
  private Path results;
  private Path replay;

  @Override
  protected HomeQueue connect() {
    if (results == null) {
      results = folder("results-");
      replay = results.getParent().resolve(results.getFileName() + "-coalition-replay");
      try {
        // the program as the package installs it, where the pool's jobs see it (the testbed's chroot shares the jobs folder)
        Files.copy(Path.of("..", "slurm-handler", "src", "main", "slurm", "coalition-replay"), replay);
        Files.setPosixFilePermissions(replay, PosixFilePermissions.fromString("rwxr-xr-x"));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return CondorHandler.connect(new CondorHandler.Config(CondorContractIT.tools(condor), Duration.ofHours(1), Optional.of(results), replay));
  }

  private Path folder(String prefix) {
    try {
      Path p = Files.createTempDirectory(jobsFolder(), prefix);
      Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwx--x--x"));
      return p;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  protected void close(HomeQueue home) {
    ((CondorHandler) home).close();
  }

  @Override
  protected void observe(HomeQueue home) {
    ((CondorHandler) home).observe();
  }

  @Override
  protected int totalCores() {
    return Integer.parseInt(condor.get("cpus"));
  }

  @Override
  protected Path jobsFolder() {
    return condor.path("jobs.dir");
  }

  @Override
  protected Submitted submit(Path dir, Path script, int cores, boolean optedIn) {
    int n = submitted.incrementAndGet();
    Path out = dir.resolve("out-" + n);
    Path err = dir.resolve("err-" + n);
    String description = String.join("\n", "executable = " + script, "initialdir = " + dir, "output = " + out, "error = " + err,
        "should_transfer_files = NO", "request_cpus = " + cores, optedIn ? "+CoalitionFederate = true" : "", "queue", "");
    return new Submitted(submitAsUser(description), out, err);
  }

  private String submitAsUser(String description) {
    String terse = Command.of(condor.tool("condor_submit"), "-terse", "-").asUser(condor.get("user")).stdin(description).run().requireSuccess()
        .stdout();
    return CondorJobs.submitted(terse).get(0);
  }

  @Override
  protected Ended awaitEnd(String id) {
    Eventually.waitFor(() -> "job " + id + " to end in HTCondor's history", WAIT, Duration.ofSeconds(1), () -> history(id).isPresent());
    JsonNode ad = history(id).orElseThrow();
    return ad.path("ExitBySignal").asBoolean(false) ? Ended.killed(ad.path("ExitSignal").asInt()) : Ended.exited(ad.path("ExitCode").asInt());
  }

  private Optional<JsonNode> history(String id) {
    String out = Command.of(condor.tool("condor_history"), "-json", "-attributes", "ClusterId,ProcId,JobStatus,ExitCode,ExitBySignal,ExitSignal",
        "-constraint", CondorJobs.constraint(List.of(id)) + " && JobStatus == 4").run().requireSuccess().stdout();
    return CondorTools.parse(out, "condor_history").stream().findFirst();
  }

  @Override
  protected boolean started(String id) {
    String out = Command.of(condor.tool("condor_q"), "-allusers", "-json", "-attributes", "JobStatus,JobStartDate", "-constraint",
        CondorJobs.constraint(List.of(id))).run().requireSuccess().stdout();
    List<JsonNode> ads = CondorTools.parse(out, "condor_q");
    return ads.isEmpty() || ads.get(0).path("JobStatus").asInt() == CondorJobs.RUNNING || ads.get(0).has("JobStartDate");
  }

  @Override
  protected String occupy(int cores) {
    Path dir = folder("occupier-");
    return submitAsUser(String.join("\n", "executable = /bin/sleep", "arguments = 3600", "transfer_executable = false", "initialdir = " + dir,
        "should_transfer_files = NO", "request_cpus = " + cores, "queue", ""));
  }

  @Override
  protected void cancel(String id) {
    Command.of(condor.tool("condor_rm"), id).run().requireSuccess();
  }

  @Override
  protected void adminHold(String id) {
    Command.of(condor.tool("condor_hold"), id).run().requireSuccess();
  }

  /**
   * The access point's set-up (docs/examples/condor-access-point.conf, which the testbed's pool
   * runs): a job's user can write Coalition's hold token neither at submission nor by an edit, so
   * no hold of theirs passes for Coalition's, which the daemon would release.
   */
  @Test
  void aUserCannotWriteCoalitionsHoldTokenSoNoHoldOfTheirsPassesForCoalitions() {
    Path dir = folder("forge-");
    String id = submitAsUser(String.join("\n", "executable = /bin/true", "transfer_executable = false", "initialdir = " + dir,
        "should_transfer_files = NO", "hold = true", "+CoalitionFederate = true", "+" + CondorHome.HOLD_TOKEN + " = 5", "queue", ""));
    assertEquals("undefined", token(id), "the schedd dropped the token the submit file wrote");
    Command.Result edit = Command.of(condor.tool("condor_qedit"), id, CondorHome.HOLD_TOKEN, "5").asUser(condor.get("user")).run();
    assertNotEquals(0, edit.exitCode(), "the user's edit of the token is refused: " + edit.describe());
    assertEquals("undefined", token(id), "the token is still not there");
    Command.of(condor.tool("condor_qedit"), id, "CoalitionNote", "\"mine\"").asUser(condor.get("user")).run().requireSuccess();
  }

  /** A cluster of procs ({@code queue N}): CLUSTER.0 to CLUSTER.N-1, each its own output and error files ({@code $(Process)}). */
  @Override
  protected List<Submitted> submitArray(Path dir, Path script, int tasks) {
    String first = submitAsUser(String.join("\n", "executable = " + script, "initialdir = " + dir, "output = " + dir.resolve("out.$(Process)"),
        "error = " + dir.resolve("err.$(Process)"), "should_transfer_files = NO", "request_cpus = 1", "+CoalitionFederate = true",
        "queue " + tasks, ""));
    String cluster = first.replaceFirst("\\..*", "");
    List<Submitted> out = new ArrayList<>();
    for (int p = 0; p < tasks; p++) {
      out.add(new Submitted(cluster + "." + p, dir.resolve("out." + p), dir.resolve("err." + p)));
    }
    return out;
  }

  private String token(String id) {
    return Command.of(condor.tool("condor_q"), "-allusers", id, "-af", CondorHome.HOLD_TOKEN).run().requireSuccess().stdout().strip();
  }

  @Override
  protected void emptyQueue() {
    CondorContractIT.removeAll(condor);
  }
}
