package org.coalition.slurm;

import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.coalition.handler.HandlerException;
import org.coalition.handler.HandlerException.Category;
import org.coalition.handler.RemoteRun;
import org.coalition.handler.files.Results;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the daemon does to its users' opted-in jobs while they may run elsewhere: park, unpark,
 * note, replay, and read the script. Each acts only on a job that job_submit.lua opted in and that
 * is still pending: a job as the handler's observer user through slurmrestd, an array's task
 * ({@code 276_5}) by its name through the site's scontrol ({@link JobUpdates}).
 */
final class FederableJobs {
  private static final Logger LOG = LoggerFactory.getLogger(FederableJobs.class);

  /** How far a replay goes before the jobs waiting here (Slurm's nice, in priority points; an operator's to give). */
  static final int REPLAY_NICE = 10_000;
  /** A job's id, or an array task's: {@code 276}, {@code 276_5}. */
  private static final Pattern ID = Pattern.compile("([0-9]{1,18})(?:_([0-9]{1,9}))?");

  private final SlurmRest rest;
  private final SlurmConfig config;
  private final Optional<Results> results;

  FederableJobs(SlurmRest rest, SlurmConfig config, Optional<Results> results) {
    this.rest = rest;
    this.config = config;
    this.results = results;
  }

  /**
   * Keeps an opted-in job from starting here while it runs at another site (an administrator's
   * hold: its user cannot release it by mistake).
   *
   * @throws HandlerException REJECTED when the job was not opted in or is no longer pending, NOT_FOUND when Slurm does not know it
   */
  void park(String jobId) {
    Target t = pendingFederable(jobId, "park");
    String reason = t.record().reason();
    if (reason.equals("JobHeldAdmin")) {
      // held by an administrator, not by the daemon (which parks only jobs not held): parking it would make that hold the
      // daemon's, and a replay or an unpark would release it. The handler's view may not show the hold yet (REST v0.0.42
      // re-reads a waiting job's details only every fullListEvery); this record is read now. (A job its user holds is
      // parked over as before: its user's release is a release either way.)
      throw new HandlerException(Category.REJECTED, "cannot park job " + jobId + ": an administrator holds it (" + reason + "); it stays"
          + " as it is");
    }
    updates(t).hold(true);
  }

  /** Lets a parked job run here after all: its run elsewhere was withdrawn before it started. */
  void unpark(String jobId) {
    Target t = pendingFederable(jobId, "unpark");
    if (!t.split()) {
      return; // a task still in its array's record was never parked nor noted (both split it off): nothing to undo
    }
    SlurmJob job = t.record();
    JobUpdates updates = updates(t);
    String own = JobComment.users(job.comment());
    if (!own.equals(job.comment())) {
      // it runs here: the daemon's note goes, and the job runs here whatever its comment says
      optionalUpdate(jobId, () -> updates.comment(own), "runs here with the daemon's note left in its comment");
    }
    updates.hold(false);
  }

  /**
   * Puts {@code text} in the job's comment, before its user's own ({@link JobComment}), where
   * {@code squeue -O comment} and {@code scontrol show job} show it.
   */
  void note(String jobId, String text) {
    Target t = pendingFederable(jobId, "note where it is on");
    updates(t).comment(JobComment.noted(text, t.record().comment()));
  }

  /**
   * Hands a parked job its run at another site and releases it: coalition-replay then writes that
   * run's output and ends the way it ended, in a second, so {@code sacct} and
   * {@code --dependency=afterok} see the outcome of the remote run. Before the release the job is
   * shrunk to what a replay needs ({@link SlurmRest#shrink}), so it starts as soon as one core is
   * free instead of waiting for the cores it asked for; a shrink Slurm refuses is logged, and the
   * job replays at its own size (a run stopped at its time limit then replays as the signal that
   * stopped it, not as TIMEOUT, which would wait for the job's own limit).
   *
   * @throws HandlerException REJECTED when no results folder is configured, the job was not opted
   *     in or is no longer pending, or its user is unknown here; UNAVAILABLE when the result cannot be
   *     written now (a full disk: the home tries again)
   */
  void replay(String jobId, RemoteRun run) {
    Results folder = results.orElseThrow(() -> new HandlerException(Category.REJECTED,
        "cannot replay job " + jobId + ": no results folder is configured (set the one job_submit.lua names)"));
    Target t = pendingFederable(jobId, "replay a run of");
    if (!t.split()) {
      throw new HandlerException(Category.REJECTED, "cannot replay a run of task " + jobId + ": it was never parked (it is still in its"
          + " array's record)");
    }
    SlurmJob job = t.record();
    JobUpdates updates = updates(t);
    RemoteRun replayed = run;
    int minutes = SlurmRest.replayMinutes(run.files().map(f -> f.tar().toFile().length()).orElse(0L));
    boolean shrunk = optionalUpdate(jobId, () -> updates.shrink(minutes), "replays at the size it asked for, waiting for its cores");
    if (!shrunk && (run.timedOut() || run.outOfMemory())) {
      // a timeout replays by waiting for the job's limit, which may be a day or none, and a memory kill by passing the job's memory,
      // which may be a node's: it ends by the signal instead
      replayed = run.plain();
    }
    folder.write(job.id(), job.user(), replayed); // the hook looks for $SLURM_JOB_ID: a task split off has an id of its own
    // The replay goes before the jobs waiting here: released, a job gets the lowest priority (priority/basic), and Slurm's main
    // scheduler passes over the rest of a partition (an array's tasks, in order) at the first job that cannot start, so a replay
    // behind a job waiting for cores waited for the backfill pass (up to 30 s) with a core free. Released as it is when Slurm
    // refuses the nice (an observer that is no operator).
    if (!optionalUpdate(jobId, () -> updates.releaseAhead(REPLAY_NICE), "replays in its turn behind the jobs waiting here")) {
      updates.hold(false);
    }
  }

  /**
   * The script of an opted-in job as its user wrote it: read with {@code scontrol write
   * batch_script}, without the statement job_submit.lua put at the start of its second line.
   *
   * @throws HandlerException REJECTED when the job was not opted in or is no longer pending,
   *     NOT_FOUND when Slurm does not know it, UNAVAILABLE when scontrol fails
   */
  String payload(String jobId) {
    Target t = pendingFederable(jobId, "read the script of");
    return BatchScripts.withoutHook(BatchScripts.read(config.scontrol(), t.record().id(), config.timeout()), jobId);
  }

  /** Who owns job or task {@code jobId}, in any state, while Slurm knows it; empty for what is no Slurm job id. */
  Optional<String> owner(String jobId) {
    Matcher id = ID.matcher(jobId);
    if (!id.matches()) {
      return Optional.empty();
    }
    long array = Long.parseLong(id.group(1));
    return rest.records(id.group(1)).stream().filter(r -> id.group(2) == null ? r.id().equals(jobId) : r.array().jobId() == array)
        .map(SlurmJob::user).filter(u -> !u.isEmpty()).findFirst();
  }

  /**
   * An update a release or a replay does not need: false, and logged with what then happens, when
   * Slurm refuses it; thrown when Slurm cannot be reached (the release would fail too, and the
   * home tries again).
   */
  private boolean optionalUpdate(String jobId, Runnable update, String otherwise) {
    try {
      update.run();
      return true;
    } catch (HandlerException e) {
      if (e.category() == Category.UNAVAILABLE) {
        throw e;
      }
      LOG.warn("job {} {}: Slurm refused the update ({})", jobId, otherwise, e.getMessage());
      return false;
    }
  }

  /**
   * The record holding a job, or an array's task {@code task} (-1 for a job), and whether it is
   * the task's own: a task not split off yet is held by the array's record of such tasks.
   */
  private record Target(SlurmJob record, boolean split, long task) {}

  private Target pendingFederable(String jobId, String what) {
    Matcher id = ID.matcher(jobId);
    if (!id.matches()) {
      throw new HandlerException(Category.REJECTED, "'" + jobId + "' is not a Slurm job id (JOB, or ARRAY_TASK for a task of an array)");
    }
    Target t = id.group(2) == null ? job(jobId, what) : task(id.group(1), Long.parseLong(id.group(2)), what);
    SlurmJob job = t.record();
    if (!job.federable()) {
      throw new HandlerException(Category.REJECTED, "cannot " + what + " job " + jobId + ": it was not opted in to the federation"
          + " (its admin comment lacks '" + SlurmJob.MARK + "', so the job_submit filter did not wrap it)");
    }
    if (!job.pending()) {
      throw new HandlerException(Category.REJECTED, "cannot " + what + " job " + jobId + ": it is " + job.state() + ", not pending");
    }
    return t;
  }

  private Target job(String jobId, String what) {
    SlurmJob job = rest.job(jobId).orElseThrow(() -> new HandlerException(Category.NOT_FOUND, "cannot " + what + " job " + jobId
        + ": Slurm does not know it"));
    if (job.array().any()) {
      long task = job.array().taskId();
      throw new HandlerException(Category.REJECTED, "cannot " + what + " job " + jobId + ": it is an array's record; name its task"
          + (task >= 0 ? " " + job.array().name(task) : "s ARRAY_TASK"));
    }
    return new Target(job, true, -1);
  }

  private Target task(String arrayId, long task, String what) {
    List<SlurmJob> records = rest.records(arrayId);
    long array = Long.parseLong(arrayId);
    for (SlurmJob r : records) {
      if (r.array().jobId() == array && r.array().taskId() == task) {
        return new Target(r, true, task);
      }
    }
    for (SlurmJob r : records) {
      if (r.array().jobId() == array && r.array().taskId() < 0 && r.array().tasks().contains(task)) {
        return new Target(r, false, task);
      }
    }
    throw new HandlerException(Category.NOT_FOUND, "cannot " + what + " task " + arrayId + "_" + task + ": Slurm does not know it");
  }

  /** How the daemon updates the job: a job through slurmrestd, an array task by its name through scontrol ({@link JobUpdates}). */
  private JobUpdates updates(Target t) {
    SlurmArray array = t.record().array();
    if (!array.any()) {
      return JobUpdates.rest(rest, t.record().id(), config.observer());
    }
    return JobUpdates.scontrol(config.scontrol(), array.name(t.task()), config.timeout());
  }
}
