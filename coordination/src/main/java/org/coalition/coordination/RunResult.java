package org.coalition.coordination;

/**
 * How a claimed job's run ended: start and end (seconds since the federation's epoch), the exit
 * code, and where its output can be fetched (a URI the executing daemon serves; may be empty).
 */
public record RunResult(double start, double end, int exitCode, String output) {
  public static final int MAX_OUTPUT_REF = 2048;

  public RunResult {
    if (!Double.isFinite(start) || !Double.isFinite(end) || start < 0 || end < start) {
      throw new IllegalArgumentException("run must have 0 <= start <= end, was start " + start + ", end " + end);
    }
    if (output == null || output.length() > MAX_OUTPUT_REF) {
      throw new IllegalArgumentException("output reference must be at most " + MAX_OUTPUT_REF + " characters");
    }
  }
}
