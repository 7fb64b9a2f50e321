package org.coalition.slurm;

import java.util.Optional;
import org.coalition.handler.HandlerException;
import org.coalition.handler.HandlerException.Category;
import org.coalition.handler.RemoteRun;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the daemon does to its users' opted-in jobs while they may run elsewhere: park, unpark,
 * replay, and read the script. Each acts only on a job that job_submit.lua opted in and that is
 * still pending, as the handler's observer user.
 */
final class FederableJobs {
  private static final Logger LOG = LoggerFactory.getLogger(FederableJobs.class);

  private final SlurmRest rest;
  private final SlurmHandler.Config config;
  private final Optional<Results> results;

  FederableJobs(SlurmRest rest, SlurmHandler.Config config, Optional<Results> results) {
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
    pendingFederable(jobId, "park");
    rest.hold(jobId, true, config.observer());
  }

  /** Lets a parked job run here after all: its run elsewhere was withdrawn before it started. */
  void unpark(String jobId) {
    SlurmJob job = pendingFederable(jobId, "unpark");
    String own = JobComment.users(job.comment());
    if (!own.equals(job.comment())) {
      // it runs here: the daemon's note goes, and the job runs here whatever its comment says
      beforeRelease(jobId, () -> rest.comment(jobId, own, config.observer()), "runs here with the daemon's note left in its comment");
    }
    rest.hold(jobId, false, config.observer());
  }

  /**
   * Puts {@code text} in the job's comment, before its user's own ({@link JobComment}), where
   * {@code squeue -O comment} and {@code scontrol show job} show it.
   */
  void note(String jobId, String text) {
    SlurmJob job = pendingFederable(jobId, "note where it is on");
    rest.comment(jobId, JobComment.noted(text, job.comment()), config.observer());
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
    SlurmJob job = pendingFederable(jobId, "replay a run of");
    RemoteRun replayed = run;
    int minutes = SlurmRest.replayMinutes(run.files().map(f -> f.tar().toFile().length()).orElse(0L));
    boolean shrunk = beforeRelease(jobId, () -> rest.shrink(jobId, minutes, config.observer()),
        "replays at the size it asked for, waiting for its cores");
    if (!shrunk && run.timedOut()) {
      // a timeout replays by waiting for the job's limit, which may be a day or none: it ends by the signal instead
      replayed = new RemoteRun(run.stdout(), run.stderr(), run.exitCode(), run.signal(), false, run.files());
    }
    folder.write(jobId, job.user(), replayed);
    rest.hold(jobId, false, config.observer());
  }

  /**
   * The script of an opted-in job as its user wrote it: read with {@code scontrol write
   * batch_script}, without the statement job_submit.lua put at the start of its second line.
   *
   * @throws HandlerException REJECTED when the job was not opted in or is no longer pending,
   *     NOT_FOUND when Slurm does not know it, UNAVAILABLE when scontrol fails
   */
  String payload(String jobId) {
    pendingFederable(jobId, "read the script of");
    return BatchScripts.withoutHook(BatchScripts.read(config.scontrol(), jobId, config.timeout()), jobId);
  }

  /**
   * An update made before a release that the release does not need: false, and logged with what
   * then happens, when Slurm refuses it; thrown when slurmrestd cannot be reached (the release
   * would fail too, and the home tries again).
   */
  private boolean beforeRelease(String jobId, Runnable update, String otherwise) {
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

  private SlurmJob pendingFederable(String jobId, String what) {
    if (!jobId.matches("[0-9]+")) {
      throw new HandlerException(Category.REJECTED, "'" + jobId + "' is not a Slurm job id");
    }
    SlurmJob job = rest.job(jobId).orElseThrow(() -> new HandlerException(Category.NOT_FOUND, "cannot " + what + " job " + jobId
        + ": Slurm does not know it"));
    if (!job.federable()) {
      throw new HandlerException(Category.REJECTED, "cannot " + what + " job " + jobId + ": it was not opted in to the federation"
          + " (its admin comment lacks '" + SlurmJob.MARK + "', so the job_submit filter did not wrap it)");
    }
    if (!job.pending()) {
      throw new HandlerException(Category.REJECTED, "cannot " + what + " job " + jobId + ": it is " + job.state() + ", not pending");
    }
    return job;
  }
}
