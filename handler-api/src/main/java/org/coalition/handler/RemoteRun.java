package org.coalition.handler;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * How a user's job ended at another site, for its home job to replay: what it wrote to standard
 * output and to standard error, its exit code or the signal that ended it, and whether it was
 * stopped at its time limit or killed for memory.
 *
 * @param signal 0 when the job exited; otherwise the signal that killed it, and {@code exitCode} is ignored
 * @param timedOut the run reached its time limit and was stopped there (its status says how it then ended)
 * @param files the files the run created or changed in its working folder, to put back into the
 *     job's working directory at home, if it wrote any
 * @param outOfMemory the executor's batch system killed a process of the run for passing its
 *     memory (its status still says how the run itself then ended)
 */
public record RemoteRun(byte[] stdout, byte[] stderr, int exitCode, int signal, boolean timedOut, Optional<Files> files,
    boolean outOfMemory) {
  /**
   * Files a run wrote: a tar of regular files and folders only, under relative names inside the
   * working directory (checked by the daemon that fetched it), and the moment the job left home:
   * a file at home changed after it was not written over (the replay keeps it, and says so).
   */
  public record Files(Path tar, Instant since) {
    public Files {
      Objects.requireNonNull(tar, "tar");
      Objects.requireNonNull(since, "since");
    }
  }

  /** A run that no memory limit cut short. */
  public RemoteRun(byte[] stdout, byte[] stderr, int exitCode, int signal, boolean timedOut, Optional<Files> files) {
    this(stdout, stderr, exitCode, signal, timedOut, files, false);
  }

  /** A run that brought no files back. */
  public RemoteRun(byte[] stdout, byte[] stderr, int exitCode, int signal, boolean timedOut) {
    this(stdout, stderr, exitCode, signal, timedOut, Optional.empty());
  }

  /** A run that ended by itself, before any time limit. */
  public RemoteRun(byte[] stdout, byte[] stderr, int exitCode, int signal) {
    this(stdout, stderr, exitCode, signal, false);
  }

  public RemoteRun {
    Objects.requireNonNull(stdout, "stdout");
    Objects.requireNonNull(stderr, "stderr");
    Objects.requireNonNull(files, "files");
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

  /** A run stopped at its time limit, which then ended by {@code signal} (0: it exited with {@code exitCode}). */
  public static RemoteRun timedOut(String stdout, String stderr, int exitCode, int signal) {
    return new RemoteRun(stdout.getBytes(StandardCharsets.UTF_8), stderr.getBytes(StandardCharsets.UTF_8), exitCode, signal, true);
  }

  /** How it ended. */
  public ExitStatus status() {
    return new ExitStatus(signal == 0 ? exitCode : 0, signal);
  }

  /**
   * The line coalition-replay reads: {@code exit N} or {@code signal N}, or {@code timeout N} for a
   * run stopped at its time limit (N: the signal that then ended it, 0 when it exited); followed by
   * {@code oom} for a run killed for memory, which the replay is too, where its home enforces memory.
   */
  public String statusLine() {
    return (timedOut ? "timeout " + signal : status().toString()) + (outOfMemory ? " oom" : "") + "\n";
  }

  /** The same run, told as neither stopped at its time limit nor killed for memory (a replay that cannot show either). */
  public RemoteRun plain() {
    return new RemoteRun(stdout, stderr, exitCode, signal, false, files, false);
  }
}
