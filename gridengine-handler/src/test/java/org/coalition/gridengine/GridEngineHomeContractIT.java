package org.coalition.gridengine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.coalition.handler.HomeJob;
import org.coalition.handler.HomeQueue;
import org.coalition.handler.HomeQueueContract;
import org.coalition.handler.RemoteRun;
import org.coalition.handler.files.Results;
import org.coalition.testbed.Command;
import org.coalition.testbed.Eventually;
import org.coalition.testbed.Instance;
import org.coalition.testbed.Testbed;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The home side's shared contract ({@link HomeQueueContract}) on the testbed's Grid Engine 8.1.9,
 * set up as docs/gridengine-home.md tells a site admin to: its queue starts every job through
 * {@code coalition-gridengine-starter}, which replays a parked job's run from the results folder,
 * and {@code qacct -j} is the record of how a job ended.
 */
@Tag("testbed") // needs testbed/up's systems: .ci/run runs it once they are up
class GridEngineHomeContractIT extends HomeQueueContract {
  private static final Pattern EXIT = Pattern.compile("(?m)^exit_status\\s+(\\d+)");
  private static final Pattern FAILED = Pattern.compile("(?m)^failed\\s+(\\d+)");
  private final Instance sge = Testbed.require("sge");
  private final AtomicInteger submitted = new AtomicInteger();

  @Override
  protected HomeQueue connect() {
    return GridEngineHandler.connect(GridEngineContractIT.config(sge).withHome(sge.path("results.dir"), sge.path("spool")));
  }

  @Override
  protected void close(HomeQueue home) {
    ((GridEngineHandler) home).close();
  }

  @Override
  protected void observe(HomeQueue home) {
    ((GridEngineHandler) home).observe();
  }

  @Override
  protected int totalCores() {
    return Integer.parseInt(sge.get("slots"));
  }

  @Override
  protected Path jobsFolder() {
    return sge.path("jobs.dir");
  }

  @Override
  protected Submitted submit(Path dir, Path script, int cores, boolean optedIn) {
    int n = submitted.incrementAndGet();
    Path out = dir.resolve("out-" + n);
    Path err = dir.resolve("err-" + n);
    List<String> args = new ArrayList<>(List.of("-terse", "-wd", dir.toString(), "-o", out.toString(), "-e", err.toString()));
    if (cores > 1) {
      args.addAll(List.of("-pe", sge.get("pe"), Integer.toString(cores)));
    }
    if (optedIn) {
      args.addAll(List.of("-ac", GridEngineHome.FEDERATE + "=1"));
    }
    args.add(script.toString());
    return new Submitted(qsub(args), out, err);
  }

  private String qsub(List<String> args) {
    return Command.of(sge.tool("qsub"), args.toArray(String[]::new)).asUser(sge.get("user")).run().requireSuccess().stdout().strip();
  }

  /**
   * {@code qacct -j}'s exit status and failure code: a job killed by a signal has an exit status of
   * 128 and the signal, and {@code failed 100} ("assumedly after job"), as Grid Engine records one killed here.
   */
  @Override
  protected Ended awaitEnd(String id) {
    Eventually.waitFor(() -> "job " + id + " in Grid Engine's accounting (qacct -j)", WAIT, Duration.ofSeconds(1), () -> qacct(id).isPresent());
    String record = qacct(id).orElseThrow();
    int exit = number(EXIT, record);
    return number(FAILED, record) == 100 && exit > 128 ? Ended.killed(exit - 128) : Ended.exited(exit);
  }

  /** {@code qacct -j}'s record of a job, or of one task ({@code JOB.TASK}: {@code -j JOB -t TASK}). */
  private Optional<String> qacct(String id) {
    String[] parts = id.split("\\.");
    Command.Result r = (parts.length == 2 ? Command.of(sge.tool("qacct"), "-j", parts[0], "-t", parts[1]) : Command.of(sge.tool("qacct"), "-j", id))
        .run();
    return r.exitCode() == 0 && EXIT.matcher(r.stdout()).find() ? Optional.of(r.stdout()) : Optional.empty();
  }

  private static int number(Pattern p, String record) {
    Matcher m = p.matcher(record);
    if (!m.find()) {
      throw new AssertionError("qacct printed no " + p + ": " + record);
    }
    return Integer.parseInt(m.group(1));
  }

  @Override
  protected boolean started(String id) {
    String xml = Command.of(sge.tool("qstat"), "-xml", "-u", "*", "-g", "d").run().requireSuccess().stdout();
    return QstatXml.listed(xml).stream().noneMatch(w -> w.id().equals(id) && w.state().contains("q"));
  }

  @Override
  protected String occupy(int cores) {
    return qsub(List.of("-terse", "-b", "y", "-pe", sge.get("pe"), Integer.toString(cores), "-o", "/dev/null", "-e", "/dev/null", "/bin/sleep", "3600"));
  }

  @Override
  protected void cancel(String id) {
    Command.of(sge.tool("qdel"), id).run().requireSuccess();
  }

  @Override
  protected void adminHold(String id) {
    Command.of(sge.tool("qhold"), "-h", "o", id).run().requireSuccess();
  }

  /**
   * An array's tasks are listed one by one with their numbers, and one task parked and replayed
   * ends as its run did while its siblings run at home: Grid Engine's holds and the starter's
   * results are per task.
   */
  @Test
  void anArraysTasksAreListedOneByOneAndOneReplaysWhileItsSiblingsRunAtHome() throws IOException {
    String last = occupy(1); // with the contract's occupier, every slot: no task starts until the test lets it
    Eventually.waitFor(() -> "the last slot's occupier to run", WAIT, Duration.ofMillis(500), () -> started(last));
    Path dir = Files.createTempDirectory(jobsFolder(), "array-");
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
    Path script = Files.writeString(dir.resolve("task.sh"), "#!/bin/sh\necho \"task $SGE_TASK_ID at home\"\nexit 42\n");
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    String job = qsub(List.of("-terse", "-t", "1-3", "-wd", dir.toString(), "-o", dir.resolve("out.$TASK_ID").toString(), "-e",
        dir.resolve("err.$TASK_ID").toString(), "-ac", GridEngineHome.FEDERATE + "=1", script.toString())).replaceFirst("\\..*", "");
    GridEngineHome home = new GridEngineHome(GridEngineContractIT.config(sge).qstat(), new Results(sge.path("results.dir")), sge.path("spool"),
        "mem_free", Clock.systemUTC());
    Eventually.waitFor(() -> "three tasks of job " + job + " listed", WAIT, Duration.ofMillis(500), () -> {
      home.observe();
      return home.federable().stream().filter(j -> j.id().startsWith(job + ".")).count() == 3;
    });
    HomeJob second = home.federable().stream().filter(j -> j.id().equals(job + ".2")).findFirst().orElseThrow();
    assertEquals(Map.of("SGE_TASK_ID", "2", "SGE_TASK_FIRST", "1", "SGE_TASK_LAST", "3", "SGE_TASK_STEPSIZE", "1"), second.environment());
    assertTrue(second.ready());
    assertEquals("#!/bin/sh\necho \"task $SGE_TASK_ID at home\"\nexit 42\n", home.payload(job + ".2"), "the user's own file, read as the user");
    home.park(job + ".2");
    home.observe();
    Map<String, Boolean> held = new TreeMap<>();
    home.federable().stream().filter(j -> j.id().startsWith(job + ".")).forEach(j -> held.put(j.id(), j.held()));
    assertEquals(Map.of(job + ".1", false, job + ".2", true, job + ".3", false), held, "only the parked task is held");
    home.replay(job + ".2", RemoteRun.exited("task two elsewhere\n", "", 5));
    cancel(last);
    assertEquals(Ended.exited(5), awaitEnd(job + ".2"), "the replayed task ends as its run did");
    assertEquals(Ended.exited(42), awaitEnd(job + ".1"), "its siblings run at home");
    assertEquals(Ended.exited(42), awaitEnd(job + ".3"));
    assertEquals("task two elsewhere\n", Files.readString(dir.resolve("out.2")));
    assertEquals("task 1 at home\n", Files.readString(dir.resolve("out.1")));
  }

  @Override
  protected void emptyQueue() {
    GridEngineContractIT.removeAll(sge);
  }
}
