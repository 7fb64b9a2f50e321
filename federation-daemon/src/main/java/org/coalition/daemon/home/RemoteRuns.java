package org.coalition.daemon.home;

import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.coalition.coordination.RunResult;
import org.coalition.handler.RemoteRun;

/** The run a home replays: how a result says it ended, with the output fetched for it (or a note in its place). */
final class RemoteRuns {
  private RemoteRuns() {}

  /** How {@code r} ended, with its output. */
  static RemoteRun of(RunResult r, byte[] stdout, byte[] stderr) {
    return new RemoteRun(stdout, stderr, clampExit(r.exitCode()), r.signal(), r.timedOut(), Optional.empty(), r.outOfMemory());
  }

  /** How {@code r} ended, with only a note on standard error for output. */
  static RemoteRun withoutOutput(RunResult r, String note) {
    return of(r, new byte[0], note.getBytes(StandardCharsets.UTF_8));
  }

  /** A result's exit code is checked already; a batch system takes 0-255 whatever a peer wrote. */
  private static int clampExit(int code) {
    return code >= 0 && code <= 255 ? code : 255;
  }
}
