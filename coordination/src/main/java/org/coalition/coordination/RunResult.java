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

  /**
   * A run to fill in by name from {@code start}, {@code end}; what is not set is
   * exit code 0, no signal, not stopped at its limit, no output, no checksum, not killed for
   * memory, no size declared.
   */
  public static Builder builder(double start, double end) {
    return new Builder(start, end);
  }

  /** A builder holding this run, to change some of it. */
  public Builder toBuilder() {
    Builder b = new Builder(start, end);
    b.exitCode = exitCode;
    b.signal = signal;
    b.timedOut = timedOut;
    b.output = output;
    b.outputSha256 = outputSha256;
    b.outOfMemory = outOfMemory;
    b.outputBytes = outputBytes;
    return b;
  }

  /** A {@link RunResult} filled in by name ({@link RunResult#builder}); {@link #build} checks it as the constructor does. */
  public static final class Builder {
    private final double start;
    private final double end;
    private int exitCode;
    private int signal;
    private boolean timedOut;
    private String output = "";
    private String outputSha256 = "";
    private boolean outOfMemory;
    private long outputBytes;

    private Builder(double start, double end) {
      this.start = start;
      this.end = end;
    }

    public Builder exitCode(int value) {
      exitCode = value;
      return this;
    }

    public Builder signal(int value) {
      signal = value;
      return this;
    }

    public Builder timedOut(boolean value) {
      timedOut = value;
      return this;
    }

    public Builder output(String value) {
      output = value;
      return this;
    }

    public Builder outputSha256(String value) {
      outputSha256 = value;
      return this;
    }

    public Builder outOfMemory(boolean value) {
      outOfMemory = value;
      return this;
    }

    public Builder outputBytes(long value) {
      outputBytes = value;
      return this;
    }

    public RunResult build() {
      return new RunResult(start, end, exitCode, signal, timedOut, output, outputSha256, outOfMemory, outputBytes);
    }
  }
}
