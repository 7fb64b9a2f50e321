package org.coalition.gridengine;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.coalition.handler.HandlerException;
import org.coalition.handler.HandlerException.Category;
import org.coalition.handler.HomeJob;
import org.coalition.handler.HomeQueue;
import org.coalition.handler.RemoteRun;
import org.coalition.handler.RequestCost;
import org.coalition.handler.Tool;
import org.coalition.handler.files.AsAccount;
import org.coalition.handler.files.Results;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Grid Engine as a home (issue #50, docs/decisions/0018): its users' opted-in jobs (the context
 * variable {@code COALITION_FEDERATE=1}, by {@code qsub -ac} or the cluster's JSV) are listed,
 * parked with a <em>system</em> hold, and brought home through the queue's starter method.
 *
 * <ul>
 *   <li><b>Park</b>: {@code qhold -h s} of a job or task that waits with no hold at all. Holds are
 *       flags, one per kind, so Coalition owns one kind: the system hold, which only managers set
 *       and release, on opted-in jobs; an administrator's or user's hold ({@code -h o}, {@code -h
 *       u}) is another flag, left as it is by {@code qrls -h s}. A job that has any hold is never parked.
 *   <li><b>Replay</b>: the run's result goes to the results folder ({@link Results}, the folder the
 *       queue's {@code coalition-gridengine-starter} looks in), a job of several slots is shrunk to
 *       one ({@code qalter -pe PE 1}), and the system hold is released. Grid Engine starts the job
 *       as any other, through the starter, which runs {@code coalition-replay} on the result: the
 *       job's own output and error files get the run's, and {@code qacct -j} records its exit status
 *       (128 + the signal for a run killed by one, as Grid Engine records a job killed here).
 * </ul>
 *
 * <p>What travels is the job's script: qmaster's copy where it spools to files, otherwise the
 * user's own script file, read as the user while unchanged since the submission ({@link #payload});
 * array tasks go one by one with their {@code SGE_TASK_*} numbers. A binary or interactive job, an
 * array of several slots a task, a job asking for GPUs and a script without {@code #!} that names
 * no shell stay home, and the user is told why (docs/jobs.md).
 */
final class GridEngineHome implements HomeQueue {
  private static final Logger LOG = LoggerFactory.getLogger(GridEngineHome.class);
  /** The context variable that opts a job in. */
  static final String FEDERATE = "COALITION_FEDERATE";
  /** The context variable that tells where a parked job is ({@code qstat -j}); an array task's has its number after an underscore. */
  static final String WHERE = "COALITION_WHERE";
  /** The largest script sent to the federation (the federation's own bound on a job's payload). */
  private static final int MAX_SCRIPT = 1 << 20;
  /** Job numbers per {@code qstat -j} call: a bounded command line. */
  private static final int PER_CALL = 200;
  private static final Pattern ID = Pattern.compile("([0-9]{1,9})(?:\\.([0-9]{1,9}))?");
  private static final Pattern SCRIPT = Pattern.compile("job_scripts/[0-9]{1,9}");

  private final Tool qstat;
  private final Tool qhold;
  private final Tool qrls;
  private final Tool qalter;
  private final Results results;
  private final Path spool;
  private final String memoryComplex;
  private final Clock clock;
  private volatile List<HomeJob> federable = List.of();
  /** Every job and task in the queue at the last observation, in any state: a replay running is one. */
  private volatile Set<String> inQueue = Set.of();

  /**
   * @param qstat Grid Engine's {@code qstat}; {@code qhold}, {@code qrls} and {@code qalter} are found beside it
   * @param results the folder run results are left in for the starter (readable by the jobs' hosts)
   * @param spool qmaster's spool folder, whose {@code job_scripts} hold the jobs' scripts under file spooling
   * @param memoryComplex the complex jobs ask their memory by ({@code mem_free}), read as the job's whole memory
   */
  GridEngineHome(Tool qstat, Results results, Path spool, String memoryComplex, Clock clock) {
    this.qstat = qstat;
    this.qhold = beside(qstat, "qhold");
    this.qrls = beside(qstat, "qrls");
    this.qalter = beside(qstat, "qalter");
    this.results = results;
    this.spool = spool;
    this.memoryComplex = memoryComplex;
    this.clock = clock;
  }

  /** The tool {@code name} where {@code tool}'s last word is (its wrappers kept): {@code /usr/bin/qstat} gives {@code /usr/bin/qhold}. */
  static Tool beside(Tool tool, String name) {
    List<String> argv = new ArrayList<>(tool.argv());
    String last = argv.get(argv.size() - 1);
    int slash = last.lastIndexOf('/');
    argv.set(argv.size() - 1, last.substring(0, slash + 1) + name);
    return new Tool(argv, tool.environment(), tool.timeout());
  }

  /**
   * Reads the jobs in the queue and the opted-in ones' details; {@link #federable} answers from it
   * until the next observation. Returns what it cost: qstat calls and the bytes they answered.
   */
  RequestCost observe() {
    String listing = qstat.run(List.of("-xml", "-u", "*", "-g", "d"), null).requireSuccess("observe Grid Engine's jobs", Category.UNAVAILABLE);
    List<QstatXml.Listed> all = QstatXml.listed(listing);
    Set<String> ids = new HashSet<>();
    Set<Long> waitingJobs = new LinkedHashSet<>();
    for (QstatXml.Listed w : all) {
      ids.add(w.id());
      if (waiting(w)) {
        waitingJobs.add(w.job());
      }
    }
    long bytes = listing.length();
    int calls = 1;
    Map<Long, QstatJobs.Job> details = new LinkedHashMap<>();
    List<Long> numbers = new ArrayList<>(waitingJobs);
    for (int i = 0; i < numbers.size(); i += PER_CALL) {
      String xml = details(numbers.subList(i, Math.min(numbers.size(), i + PER_CALL)));
      bytes += xml.length();
      calls++;
      details.putAll(QstatJobs.parse(xml));
    }
    List<HomeJob> jobs = new ArrayList<>();
    for (QstatXml.Listed w : all) {
      QstatJobs.Job job = details.get(w.job());
      if (waiting(w) && job != null && optedIn(job)) {
        jobs.add(homeJob(w, job, clock.millis() / 1000, Files.isDirectory(results.root().resolve(w.id()), LinkOption.NOFOLLOW_LINKS),
            memoryComplex));
      }
    }
    federable = List.copyOf(jobs);
    inQueue = Set.copyOf(ids);
    return new RequestCost(calls, bytes);
  }

  @Override
  public List<HomeJob> federable() {
    return federable;
  }

  private static boolean waiting(QstatXml.Listed w) {
    return w.state().contains("q") && !w.state().contains("E");
  }

  private static boolean optedIn(QstatJobs.Job job) {
    String v = job.context().getOrDefault(FEDERATE, "");
    return v.equals("1") || v.equalsIgnoreCase("true") || v.equalsIgnoreCase("yes");
  }

  /**
   * An opted-in job or task as the daemon sees it: held when any hold keeps it (Coalition's
   * included); ready when it waits with no hold, no start time ahead, and no replay to run.
   */
  static HomeJob homeJob(QstatXml.Listed w, QstatJobs.Job job, long now, boolean replaying, String memoryComplex) {
    Map<String, String> environment = new LinkedHashMap<>();
    if (w.task() > 0) {
      environment.put("SGE_TASK_ID", Long.toString(w.task()));
      environment.put("SGE_TASK_FIRST", Long.toString(job.firstTask()));
      environment.put("SGE_TASK_LAST", Long.toString(job.lastTask()));
      environment.put("SGE_TASK_STEPSIZE", Long.toString(job.taskStep()));
    }
    boolean held = w.state().contains("h");
    return HomeJob.builder(w.id(), job.owner()).cpus(job.slots()).memoryMb(memoryMb(job, memoryComplex))
        .timeLimitSeconds(job.hardRuntime() < 0 ? -1 : (long) Math.ceil(job.hardRuntime())).held(held)
        .ready(!held && job.executionTime() <= now && !replaying).workDir(job.cwd()).staysHome(staysHome(job)).environment(environment).build();
  }

  /** The job's memory in MiB: {@code h_vmem} is per slot, the site's memory complex ({@code mem_free}) the whole job's. */
  static long memoryMb(QstatJobs.Job job, String memoryComplex) {
    Double perSlot = job.requests().get("h_vmem");
    Double whole = memoryComplex.isEmpty() ? null : job.requests().get(memoryComplex);
    double bytes = whole != null ? whole : perSlot != null ? perSlot * job.slots() : 0;
    return (long) Math.ceil(bytes / (1 << 20));
  }

  /** Why the job cannot run elsewhere as it asks, or empty. */
  static String staysHome(QstatJobs.Job job) {
    if ((job.type() & QstatJobs.BINARY) != 0) {
      return "it is a binary job (qsub -b y): there is no script to send (submit a script instead)";
    }
    if ((job.type() & QstatJobs.INTERACTIVE) != 0) {
      return "it is an interactive job";
    }
    if (job.array() && job.slots() > 1) {
      return "it is an array of " + job.slots() + " slots a task, which Grid Engine lets Coalition shrink for a replay only as a whole";
    }
    if (job.requests().keySet().stream().anyMatch(r -> r.toLowerCase(Locale.ROOT).contains("gpu"))) {
      return "it asks for GPUs, which a Grid Engine job cannot take to another site yet";
    }
    return "";
  }

  /**
   * The job's script as Grid Engine keeps it: qmaster's spooled copy where it spools to files
   * (classic spooling), otherwise the file the user submitted, read as the user and only while it
   * is unchanged since the submission (Berkeley DB spooling, Debian's default, keeps the copy in
   * its database). A {@code #!} line naming the job's shell is added to a script that has none.
   */
  @Override
  public String payload(String id) {
    QstatJobs.Job job = job(id, "read the script of");
    if (!optedIn(job)) {
      throw new HandlerException(Category.REJECTED, "cannot read the script of job " + id + ": it was not opted in");
    }
    if (!staysHome(job).isEmpty()) {
      throw new HandlerException(Category.REJECTED, "job " + id + " stays home: " + staysHome(job));
    }
    if (!SCRIPT.matcher(job.execFile()).matches()) {
      throw new HandlerException(Category.PROTOCOL, "qstat names job " + id + "'s script '" + job.execFile() + "', not job_scripts/NUMBER");
    }
    Path spooled = spool.resolve(job.execFile());
    String script = Files.exists(spooled, LinkOption.NOFOLLOW_LINKS) ? spooled(id, spooled) : submitted(id, job);
    if (script.getBytes(StandardCharsets.UTF_8).length > MAX_SCRIPT) {
      throw new HandlerException(Category.REJECTED, "job " + id + "'s script is larger than " + MAX_SCRIPT + " bytes: it stays home");
    }
    if (script.startsWith("#!")) {
      return script;
    }
    if (job.shell().isEmpty()) {
      throw new HandlerException(Category.REJECTED, "job " + id + "'s script has no #! line and names no shell (qsub -S): Grid Engine runs it"
          + " with its queue's shell, which another site does not know; it stays home (add a #! line)");
    }
    return "#!" + job.shell() + "\n" + script;
  }

  private static String spooled(String id, Path file) {
    try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
      return new String(in.readNBytes(MAX_SCRIPT + 1), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new HandlerException(Category.UNAVAILABLE, "cannot read job " + id + "'s spooled script " + file + ": " + e, e);
    }
  }

  /** The script file the user submitted, read as the user (never as root: a link the user planted leads nowhere the user could not go). */
  private String submitted(String id, QstatJobs.Job job) {
    if (job.scriptFile().isEmpty() || job.scriptFile().equals("STDIN")) {
      throw new HandlerException(Category.REJECTED, "job " + id + " was submitted on standard input, and this cluster keeps scripts in its"
          + " database (Berkeley DB spooling), out of Coalition's reach: it stays home (submit a script file)");
    }
    Path file = Path.of(job.submittedFrom().isEmpty() ? "/" : job.submittedFrom()).resolve(job.scriptFile());
    Tool.Result r;
    try {
      r = new Tool(AsAccount.command(job.owner(), List.of("sh", "-c", "stat -c %Y -- \"$1\" && exec head -c " + (MAX_SCRIPT + 1) + " -- \"$1\"",
          "coalition-payload", file.toString())), Map.of(), qstat.timeout()).run(List.of(), null);
    } catch (IOException | IllegalArgumentException e) {
      throw new HandlerException(Category.REJECTED, "cannot read job " + id + "'s script " + file + " as " + job.owner() + ": " + e.getMessage(), e);
    }
    String out = r.requireSuccess("read job " + id + "'s script " + file + " as " + job.owner(), Category.REJECTED);
    int newline = out.indexOf('\n');
    String modified = newline < 0 ? "" : out.substring(0, newline);
    if (!modified.matches("[0-9]{1,12}")) {
      throw new HandlerException(Category.PROTOCOL, "stat printed '" + modified + "' for job " + id + "'s script " + file + ", not a time");
    }
    if (Long.parseLong(modified) > job.submissionTime()) {
      throw new HandlerException(Category.REJECTED, "job " + id + "'s script " + file + " changed after the job was submitted, and Grid Engine"
          + " runs it as it was then: it stays home");
    }
    return out.substring(newline + 1);
  }

  /** Holds a job or task that waits with no hold at all, with Coalition's system hold. */
  @Override
  public void park(String id) {
    QstatXml.Listed before = waitingNow(id, "park");
    if (before == null || !before.state().equals("qw")) {
      throw new HandlerException(Category.REJECTED, "job " + id + " is not parked: it does not wait without a hold (" + (before == null
          ? "it runs, ended or was deleted" : "state " + before.state()) + "); a hold Coalition did not make is never parked over");
    }
    qhold.run(List.of("-h", "s", id), null).requireSuccess("park job " + id, Category.UNAVAILABLE);
    if (waitingNow(id, "park") == null) {
      qrls.run(List.of("-h", "s", id), null); // it started here meanwhile: take back the hold, which holds nothing
      throw new HandlerException(Category.REJECTED, "job " + id + " is not parked: it started here meanwhile");
    }
  }

  /** Releases Coalition's hold (its publication was withdrawn): it runs here after all, and the note of where it was goes. */
  @Override
  public void unpark(String id) {
    release(id, "unpark");
    JobId parts = parts(id, "unpark");
    qalter.run(List.of("-dc", whereVariable(parts), parts.job), null); // a note that is not there is no failure
  }

  /** Leaves the run for the starter, shrinks a job of several slots to one, and releases Coalition's hold. */
  @Override
  public void replay(String id, RemoteRun run) {
    QstatJobs.Job job = job(id, "replay a run of");
    QstatXml.Listed now = waitingNow(id, "replay a run of");
    if (now == null || !now.state().contains("h")) {
      throw new HandlerException(Category.REJECTED, "cannot replay a run of job " + id + ": it is not held (" + (now == null
          ? "it runs, ended or was deleted" : "state " + now.state()) + ")");
    }
    // a timeout or a memory kill would replay by waiting for the job's limits: it ends by the signal instead
    results.write(id, job.owner(), run.timedOut() || run.outOfMemory() ? run.plain() : run);
    if (job.slots() > 1 && !job.parallelEnvironment().isEmpty()) {
      Tool.Result shrink = qalter.run(List.of("-pe", job.parallelEnvironment(), "1", Long.toString(job.number())), null);
      if (shrink.exitCode() != 0 && (shrink.stdout() + shrink.stderr()).contains("jsv_allowed_mod")) {
        LOG.warn("job {}: the cluster's JSV settings refuse to shrink it to one slot for its replay ({}), so it replays at its full {} slots,"
            + " waiting for them; list pe_name,pe_min,pe_max in jsv_allowed_mod (docs/gridengine-home.md)", id,
            (shrink.stdout() + shrink.stderr()).strip(), job.slots());
      } else {
        shrink.requireSuccess("shrink job " + id + " to one slot for its replay", Category.UNAVAILABLE);
      }
    }
    release(id, "replay a run of");
  }

  /** Tells the user where the job is, in a context variable ({@code qstat -j}). */
  @Override
  public void note(String id, String text) {
    JobId parts = parts(id, "note where is");
    String value = text.replaceAll("[,\\r\\n]", ";");
    qalter.run(List.of("-ac", whereVariable(parts) + "=" + value, parts.job), null).requireSuccess("note where job " + id + " is",
        Category.UNAVAILABLE);
  }

  @Override
  public Optional<String> owner(String id) {
    if (!ID.matcher(id).matches()) {
      return Optional.empty();
    }
    long number = Long.parseLong(parts(id, "find").job);
    return Optional.ofNullable(QstatJobs.parse(details(List.of(number))).get(number)).map(QstatJobs.Job::owner);
  }

  /** Deletes the results of jobs that left the queue (a replay reads its result while it runs). */
  void sweep() {
    Set<String> queued = inQueue;
    results.sweep(id -> !queued.contains(id));
  }

  private void release(String id, String what) {
    parts(id, what);
    Tool.Result r = qrls.run(List.of("-h", "s", id), null);
    if (r.exitCode() != 0) {
      throw new HandlerException(r.stderr().contains("does not exist") ? Category.NOT_FOUND : Category.UNAVAILABLE, "cannot " + what
          + " job " + id + ": qrls -h s answered " + (r.stdout() + r.stderr()).strip());
    }
  }

  private static String whereVariable(JobId parts) {
    return parts.task == null ? WHERE : WHERE + "_" + parts.task;
  }

  /** A job id's number and task. */
  private record JobId(String job, String task) {}

  private static JobId parts(String id, String what) {
    var m = ID.matcher(id);
    if (!m.matches()) {
      throw new HandlerException(Category.NOT_FOUND, "cannot " + what + " job " + id + ": not a Grid Engine job id (JOB or JOB.TASK)");
    }
    return new JobId(m.group(1), m.group(2));
  }

  /** The job or task among those waiting now, or null when it waits no more. */
  private QstatXml.Listed waitingNow(String id, String what) {
    parts(id, what);
    String xml = qstat.run(List.of("-xml", "-u", "*", "-g", "d", "-s", "p"), null).requireSuccess(what + " job " + id, Category.UNAVAILABLE);
    return QstatXml.listed(xml).stream().filter(w -> w.id().equals(id) && waiting(w)).findFirst().orElse(null);
  }

  private QstatJobs.Job job(String id, String what) {
    long number = Long.parseLong(parts(id, what).job);
    QstatJobs.Job job = QstatJobs.parse(details(List.of(number))).get(number);
    if (job == null) {
      throw new HandlerException(Category.NOT_FOUND, "cannot " + what + " job " + id + ": Grid Engine no longer knows it");
    }
    return job;
  }

  private String details(List<Long> numbers) {
    String list = String.join(",", numbers.stream().map(Object::toString).toList());
    return qstat.run(List.of("-j", list, "-xml"), null).requireSuccess("read jobs " + list, Category.UNAVAILABLE);
  }
}
