package org.coalition.coordination;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A job published to the federation queue by its home site: its shape (cores, memory, time
 * limit), its release time (seconds since the federation's epoch) and an opaque payload that
 * the executing site's pilot hands to its runner. Validated on construction, so a record read
 * back from a peer is either well formed or rejected with the reason.
 */
public record JobSpec(String jobId, String home, int cores, long memoryMb, long walltimeSeconds, double release, String payload) {
  /** Largest payload accepted, in characters; larger work belongs in a file the payload names. */
  public static final int MAX_PAYLOAD = 16 * 1024;

  public static final int MAX_CORES = 1 << 20;

  private static final Pattern ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");

  public JobSpec {
    requireId("job id", jobId);
    requireId("home site", home);
    if (cores < 1 || cores > MAX_CORES) {
      throw new IllegalArgumentException("job " + jobId + ": cores must be in [1, " + MAX_CORES + "], was " + cores);
    }
    if (memoryMb < 0) {
      throw new IllegalArgumentException("job " + jobId + ": memory must be >= 0 MB, was " + memoryMb);
    }
    if (walltimeSeconds < 1) {
      throw new IllegalArgumentException("job " + jobId + ": time limit must be >= 1 s, was " + walltimeSeconds);
    }
    if (!Double.isFinite(release) || release < 0) {
      throw new IllegalArgumentException("job " + jobId + ": release time must be finite and >= 0, was " + release);
    }
    Objects.requireNonNull(payload, "payload");
    if (payload.length() > MAX_PAYLOAD) {
      throw new IllegalArgumentException(
          "job " + jobId + ": payload of " + payload.length() + " characters is over the limit of " + MAX_PAYLOAD
              + "; put large input in a file and pass its name");
    }
  }

  /** Checks a site or job identifier: letters, digits, '.', '_', '-', at most 128, not starting with punctuation. */
  public static String requireId(String what, String id) {
    if (id == null || !ID.matcher(id).matches()) {
      throw new IllegalArgumentException(
          what + " '" + id + "' is not a valid identifier (letters, digits, '.', '_', '-'; 1-128; starts with a letter or digit)");
    }
    return id;
  }

  public JobRef ref() {
    return new JobRef(home, jobId);
  }

  /** The same job released again at {@code release} (a run lost with its executor). */
  public JobSpec releasedAt(double newRelease) {
    return new JobSpec(jobId, home, cores, memoryMb, walltimeSeconds, newRelease, payload);
  }
}
