package org.coalition.coordination;

import java.util.Objects;

/**
 * The files a job takes with it (issue #24, "Files"): one tar its home site packed from the job's
 * working directory, served by the home's daemon to the site that holds the job's claim, and
 * checked there against this size and SHA-256 before the run starts. {@link #NONE} for a job
 * that declares no inputs.
 *
 * @param sha256 the tar's SHA-256, 64 lower-case hex digits ("" for none)
 * @param bytes the tar's size in bytes (0 for none)
 */
public record Inputs(String sha256, long bytes) {
  /** A job that declares no inputs. */
  public static final Inputs NONE = new Inputs("", 0);
  /** 1 TiB: above any site's per-job bound; a bound on what a peer's record may say. */
  public static final long MAX_BYTES = 1L << 40;

  public Inputs {
    Objects.requireNonNull(sha256, "sha256");
    if (sha256.isEmpty() ? bytes != 0 : !sha256.matches("[0-9a-f]{64}") || bytes < 1 || bytes > MAX_BYTES) {
      throw new IllegalArgumentException("inputs must be a SHA-256 (64 lower-case hex digits) and a size in [1, " + MAX_BYTES
          + "] bytes, or none; were '" + abbreviate(sha256) + "' and " + bytes);
    }
  }

  /** Whether the job takes files with it. */
  public boolean any() {
    return !sha256.isEmpty();
  }

  private static String abbreviate(String s) {
    return s.length() <= 70 ? s : s.substring(0, 70) + "...";
  }
}
