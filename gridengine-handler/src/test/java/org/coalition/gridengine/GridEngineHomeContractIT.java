package org.coalition.gridengine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.coalition.handler.HomeJob;
import org.coalition.handler.HomeQueue;
import org.coalition.handler.HomeQueueContract;
import org.coalition.testbed.Command;
import org.coalition.testbed.Eventually;
import org.coalition.testbed.Instance;
import org.coalition.testbed.Testbed;
import org.junit.jupiter.api.Tag;

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

  /** {@code qsub -t 1-N}: tasks JOB.1 to JOB.N, each its own output and error files ({@code $TASK_ID}). */
  @Override
  protected List<Submitted> submitArray(Path dir, Path script, int tasks) {
    String job = qsub(List.of("-terse", "-t", "1-" + tasks, "-wd", dir.toString(), "-o", dir.resolve("out.$TASK_ID").toString(), "-e",
        dir.resolve("err.$TASK_ID").toString(), "-ac", GridEngineHome.FEDERATE + "=1", script.toString())).replaceFirst("\\..*", "");
    List<Submitted> out = new ArrayList<>();
    for (int t = 1; t <= tasks; t++) {
      out.add(new Submitted(job + "." + t, dir.resolve("out." + t), dir.resolve("err." + t)));
    }
    return out;
  }

  /** A task runs elsewhere with the variables Grid Engine gives it here. */
  @Override
  protected void checkTask(HomeJob task, int index) {
    assertEquals(Map.of("SGE_TASK_ID", Integer.toString(index + 1), "SGE_TASK_FIRST", "1", "SGE_TASK_LAST", "3", "SGE_TASK_STEPSIZE", "1"),
        task.environment(), task.id());
  }

  @Override
  protected void emptyQueue() {
    GridEngineContractIT.removeAll(sge);
  }
}
