package org.coalition.daemon;

import java.util.Optional;
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
   * A claimed job handed to a pilot: what to run and as whom, and the pilot's token from now on
   * (the one it started with is void: the job's account can read the pilot's environment).
   */
  record Assignment(String job, String account, int cores, long walltimeSeconds, String script, String token) {
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
   */
  record RunOutcome(double start, double end, int exitCode, int signal, boolean timedOut, byte[] stdout, byte[] stderr) {
    /** A run that exited with {@code exitCode}. */
    RunOutcome(double start, double end, int exitCode, byte[] stdout, byte[] stderr) {
      this(start, end, exitCode, 0, false, stdout, stderr);
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
