package org.coalition.daemon.pilot;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.coalition.coordination.Inputs;
import org.coalition.coordination.JobEnvironment;
import org.coalition.coordination.JobOwner;
import org.coalition.coordination.RunResult;
import org.coalition.handler.ExitStatus;

/**
 * What a pilot asks of its daemon (DESIGN.md, "Pilots"): work that fits it, then heartbeats, then
 * the end of the run. Every call carries the pilot's id and its capability token; a wrong token
 * is refused. The broker implements it in-process; the HTTP API serves it to pilots on compute nodes.
 */
public interface PilotService {
  /** A job for this pilot (claimed for it now, late binding) with the pilot's new token, or empty: the pilot exits. */
  Optional<Assignment> work(String pilotId, String token);

  /** The run goes on; false when the job's claim was lost: the pilot must kill the run. */
  boolean heartbeat(String pilotId, String token);

  /** The run ended; its outcome goes to the job's home site. Calling it again (a retry) stores nothing more. */
  void finish(String pilotId, String token, RunOutcome outcome);

  /**
   * The files the pilot's job takes with it ({@link Assignment#inputs}), written to the new file
   * {@code target}: the daemon fetches them from the job's home and checks their size and SHA-256
   * first. Asked before the run starts.
   */
  void inputs(String pilotId, String token, Path target);

  /**
   * The files the pilot's run created or changed, a tar with SHA-256 {@code sha256}, at most
   * {@link Assignment#maxFilesBytes} of files: handed in before {@link #finish}, which sends them
   * home with the output. Handing them in again replaces them.
   */
  void files(String pilotId, String token, Path tar, String sha256);

  /**
   * A claimed job handed to a pilot: what to run and as whom, and the pilot's token from now on
   * (the one it started with is void: the job's account can read the pilot's environment); the
   * files it takes with it, and how many bytes of files its run may send back (0: none, a daemon
   * from before files travelled); the variables its home's batch system would set for its run (an
   * array task's numbers, {@link JobEnvironment}); and the directory it runs in, its home's own,
   * when an identity domain shares it ({@code place}; empty: a fresh sandbox).
   */
  record Assignment(String job, String account, int cores, long walltimeSeconds, String script, String token, Inputs inputs,
      long maxFilesBytes, Map<String, String> environment, String place) {
    /** A job that takes and brings no files. */
    public Assignment(String job, String account, int cores, long walltimeSeconds, String script, String token) {
      this(job, account, cores, walltimeSeconds, script, token, Inputs.NONE, 0, Map.of(), "");
    }

    public Assignment {
      inputs = inputs == null ? Inputs.NONE : inputs; // from a daemon from before files travelled
      environment = JobEnvironment.check(job, environment); // and before array tasks did
      place = place == null ? "" : place; // and before identity domains
      if (!place.isEmpty() && !JobOwner.isWorkDir(place)) {
        throw new IllegalArgumentException("job " + job + ": the directory to run in must be an absolute, normalised path, as its record's");
      }
    }

    @Override
    public String toString() {
      return "Assignment[job=" + job + ", account=" + account + ", cores=" + cores + "]"; // never the token
    }
  }

  /**
   * How a run ended, with what it wrote (each stream capped by the pilot). Start and end are on
   * the pilot's own clock, for its log; the daemon times the run on the federation clock.
   *
   * @param exitCode 0-255 as the process exited (0 when a signal ended it)
   * @param signal 0 when the process exited; otherwise the signal (1-64) that ended it
   * @param timedOut the pilot stopped the run at its time limit
   * @param outOfMemory the kernel killed a process of the run for passing the memory its batch system
   *     gave the pilot ({@code OomKills}: the OOM kills counted in the pilot's memory cgroup grew)
   */
  record RunOutcome(double start, double end, int exitCode, int signal, boolean timedOut, byte[] stdout, byte[] stderr,
      boolean outOfMemory) {
    /** A run that exited with {@code exitCode}. */
    public RunOutcome(double start, double end, int exitCode, byte[] stdout, byte[] stderr) {
      this(start, end, exitCode, 0, false, stdout, stderr);
    }

    /** A run that no memory limit cut short. */
    public RunOutcome(double start, double end, int exitCode, int signal, boolean timedOut, byte[] stdout, byte[] stderr) {
      this(start, end, exitCode, signal, timedOut, stdout, stderr, false);
    }

    /** The result this run gives its job, on the federation's clock ({@code start}, {@code end}), its output stored under {@code ref}. */
    public RunResult result(double start, double end, String ref, String sha256) {
      // no outputBytes yet: homes of an earlier version refuse a result carrying it (docs/security.md, "Outputs")
      return RunResult.builder(start, end).exitCode(exitCode).signal(signal).timedOut(timedOut).output(ref).outputSha256(sha256)
          .outOfMemory(outOfMemory).build();
    }

    /** How it ended, in words: {@code exit 0}, {@code signal 9 killed for memory}, {@code signal 15 at its time limit}. */
    public String ended() {
      return new ExitStatus(exitCode, signal) + (timedOut ? " at its time limit" : outOfMemory ? " killed for memory" : "");
    }

    public RunOutcome {
      new ExitStatus(exitCode, signal); // the same bounds, and no exit code beside a signal
      if (!(start >= 0) || !(end >= start)) {
        throw new IllegalArgumentException("run must have 0 <= start <= end, was " + start + ", " + end);
      }
    }
  }

  /**
   * The daemon could not answer now (unreachable, restarting, its disk full): the call may be
   * repeated. Every other failure is final.
   */
  final class Unavailable extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public Unavailable(String message, Throwable cause) {
      super(message, cause);
    }
  }

  /** A pilot's call was refused: unknown pilot, wrong token, or a call out of order. */
  final class PilotRefused extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public PilotRefused(String message) {
      super(message);
    }
  }
}
