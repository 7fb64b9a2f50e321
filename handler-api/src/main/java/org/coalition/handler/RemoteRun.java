package org.coalition.handler;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * How a user's job ended at another site, for its home job to replay: what it wrote to standard
 * output and to standard error, and its exit code or the signal that ended it.
 *
 * @param signal 0 when the job exited; otherwise the signal that killed it, and {@code exitCode} is ignored
 */
public record RemoteRun(byte[] stdout, byte[] stderr, int exitCode, int signal) {
  public RemoteRun {
    Objects.requireNonNull(stdout, "stdout");
    Objects.requireNonNull(stderr, "stderr");
    if (exitCode < 0 || exitCode > 255) {
      throw new IllegalArgumentException("exit code must be 0-255, was " + exitCode);
    }
    if (signal < 0 || signal > 64) {
      throw new IllegalArgumentException("signal must be 0 (none) or 1-64, was " + signal);
    }
  }

  /** A run that exited with {@code exitCode}. */
  public static RemoteRun exited(String stdout, String stderr, int exitCode) {
    return new RemoteRun(stdout.getBytes(StandardCharsets.UTF_8), stderr.getBytes(StandardCharsets.UTF_8), exitCode, 0);
  }

  /** A run that a signal ended. */
  public static RemoteRun killed(String stdout, String stderr, int signal) {
    if (signal < 1) {
      throw new IllegalArgumentException("signal must be 1-64, was " + signal);
    }
    return new RemoteRun(stdout.getBytes(StandardCharsets.UTF_8), stderr.getBytes(StandardCharsets.UTF_8), 0, signal);
  }

  /** How it ended. */
  public ExitStatus status() {
    return new ExitStatus(signal == 0 ? exitCode : 0, signal);
  }

  /** The line coalition-replay reads: {@code exit N} or {@code signal N}. */
  public String statusLine() {
    return status() + "\n";
  }
}
