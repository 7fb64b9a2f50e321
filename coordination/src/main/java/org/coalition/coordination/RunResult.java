package org.coalition.coordination;

/**
 * How a claimed job's run ended: start and end (seconds since the federation's epoch), the exit
 * code or the signal that ended it, whether it was stopped at its time limit or killed for memory,
 * and where its output can be fetched (a URI the executing daemon serves; may be empty).
 *
 * @param signal 0 when the run exited with {@code exitCode}; otherwise the signal (1-64) that ended it
 * @param timedOut the executor stopped the run at its time limit (then {@code signal} says how it ended)
 * @param outputSha256 the SHA-256 of the output the reference names when it is fetched (64 lower-case
 *     hex digits), checked by the home after the transfer; "" for an inline output or none
 * @param outOfMemory the executor's batch system killed a process of the run for passing its memory
 *     (the kernel's OOM killer in the run's memory cgroup, as Slurm's task/cgroup tells it)
 * @param outputBytes the size in bytes of the output the reference names when it is fetched, as its
 *     executor stored it; the home takes no more, and waits for the transfer in proportion to it
 *     (issue #49). 0: not declared (an inline output, none, or a result from before sizes)
 */
public record RunResult(double start, double end, int exitCode, int signal, boolean timedOut, String output, String outputSha256,
    boolean outOfMemory, long outputBytes) {
  public static final int MAX_OUTPUT_REF = 2048;

  /** A run whose output's size is not declared. */
  public RunResult(double start, double end, int exitCode, int signal, boolean timedOut, String output, String outputSha256,
      boolean outOfMemory) {
    this(start, end, exitCode, signal, timedOut, output, outputSha256, outOfMemory, 0);
  }

  /** A run that no memory limit cut short. */
  public RunResult(double start, double end, int exitCode, int signal, boolean timedOut, String output, String outputSha256) {
    this(start, end, exitCode, signal, timedOut, output, outputSha256, false);
  }

  /** A run whose output travels inline, or is fetched without a checksum (a result from before checksums). */
  public RunResult(double start, double end, int exitCode, int signal, boolean timedOut, String output) {
    this(start, end, exitCode, signal, timedOut, output, "");
  }

  /** A run that exited with {@code exitCode}. */
  public RunResult(double start, double end, int exitCode, String output) {
    this(start, end, exitCode, 0, false, output);
  }

  /** A run that ended by itself, before its time limit. */
  public RunResult(double start, double end, int exitCode, int signal, String output) {
    this(start, end, exitCode, signal, false, output);
  }

  /**
   * A run as a record holds it: one written before runs carried a signal has none ({@code null}),
   * and exited; one written before timeouts were told has no {@code timedOut}, and was not stopped; one
   * written before checksums has no {@code outputSha256}; one written before memory kills were told
   * has no {@code outOfMemory}, and was not killed for memory; one written before sizes has no
   * {@code outputBytes}, and declares none.
   */
  public static RunResult read(double start, double end, int exitCode, Integer signal, Boolean timedOut, String output, String outputSha256,
      Boolean outOfMemory, Long outputBytes) {
    return new RunResult(start, end, exitCode, signal == null ? 0 : signal, Boolean.TRUE.equals(timedOut), output,
        outputSha256 == null ? "" : outputSha256, Boolean.TRUE.equals(outOfMemory), outputBytes == null ? 0 : outputBytes);
  }

  public RunResult {
    if (signal < 0 || signal > 64) {
      throw new IllegalArgumentException("signal must be 0 (none) or 1-64, was " + signal);
    }
    if (!Double.isFinite(start) || !Double.isFinite(end) || start < 0 || end < start) {
      throw new IllegalArgumentException("run must have 0 <= start <= end, was start " + start + ", end " + end);
    }
    if (output == null || output.length() > MAX_OUTPUT_REF) {
      throw new IllegalArgumentException("output reference must be at most " + MAX_OUTPUT_REF + " characters");
    }
    if (outputSha256 == null || !(outputSha256.isEmpty() || outputSha256.matches("[0-9a-f]{64}"))) {
      throw new IllegalArgumentException("output checksum must be a SHA-256 (64 lower-case hex digits) or empty");
    }
    if (outputBytes < 0) {
      throw new IllegalArgumentException("output size must be 0 (not declared) or more bytes, was " + outputBytes);
    }
  }
}
