package org.coalition.handler;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How a job's process ended: it exited with a code, or a signal ended it. Java's process API
 * cannot tell the two apart (it reports signal N as exit 128 + N, as a shell does), so
 * {@link ScriptRunner} asks its launcher, which writes this as a line.
 *
 * @param exitCode 0-255 when the process exited; 0 when a signal ended it
 * @param signal 0 when the process exited; otherwise the signal (1-64) that ended it
 */
public record ExitStatus(int exitCode, int signal) {
  private static final Pattern LINE = Pattern.compile("(exit|signal) ([0-9]{1,3})\\s*");

  public ExitStatus {
    if (exitCode < 0 || exitCode > 255) {
      throw new IllegalArgumentException("exit code must be 0-255, was " + exitCode);
    }
    if (signal < 0 || signal > 64) {
      throw new IllegalArgumentException("signal must be 0 (none) or 1-64, was " + signal);
    }
    if (signal != 0 && exitCode != 0) {
      throw new IllegalArgumentException("a process ended by signal " + signal + " has no exit code, was " + exitCode);
    }
  }

  public static ExitStatus exited(int exitCode) {
    return new ExitStatus(exitCode, 0);
  }

  public static ExitStatus killed(int signal) {
    if (signal < 1) {
      throw new IllegalArgumentException("signal must be 1-64, was " + signal);
    }
    return new ExitStatus(0, signal);
  }

  /** {@code exit N} or {@code signal N}, as the launcher writes it; empty for anything else. */
  public static Optional<ExitStatus> parse(String line) {
    Matcher m = LINE.matcher(line);
    if (!m.matches()) {
      return Optional.empty();
    }
    int n = Integer.parseInt(m.group(2));
    try {
      return Optional.of(m.group(1).equals("exit") ? exited(n) : killed(n));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  /** The shell's number for it: the exit code, or 128 + the signal. */
  public int shellCode() {
    return signal == 0 ? exitCode : 128 + signal;
  }

  @Override
  public String toString() {
    return signal == 0 ? "exit " + exitCode : "signal " + signal;
  }
}
