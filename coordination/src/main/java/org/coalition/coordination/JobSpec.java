package org.coalition.coordination;

import java.util.Comparator;
import java.util.Map;
import java.util.Objects;
import org.coalition.job.JobLayout;

/**
 * A job published to the federation queue by its home site: its shape (cores, memory, time
 * limit), its release time (seconds since the federation's epoch) and an opaque payload that
 * the executing site's pilot hands to its runner, the files it takes with it ({@link Inputs}) and
 * the variables of its home's batch system its run must see ({@link JobEnvironment}: an array task's numbers),
 * how its cores are laid out over nodes and tasks with the GRES each node needs ({@link JobLayout}), and, for
 * the members of an identity domain its home declares, whose job it is and where it works ({@link JobOwner}).
 * Validated on construction, so a record read back from a peer is either well formed or rejected
 * with the reason.
 */
public record JobSpec(String jobId, String home, int cores, long memoryMb, long walltimeSeconds, double release, String payload,
    Inputs inputs, Map<String, String> environment, JobLayout layout, JobOwner owner) {
  /** Largest payload accepted, in characters; larger work belongs in a file the payload names. */
  public static final int MAX_PAYLOAD = 16 * 1024;

  public static final int MAX_CORES = 1 << 20;
  /** A year: no batch system grants longer, and sums of limits stay far from overflowing a long. */
  public static final long MAX_WALLTIME_SECONDS = 366L * 24 * 3600;
  /** Latest time a record may carry, seconds since the federation's epoch (three centuries). */
  public static final double MAX_TIME = 1e10;
  /** 64 TiB: more than any node has. */
  public static final long MAX_MEMORY_MB = 1L << 26;

  /** The queue's order: oldest release first, then by home and id. */
  public static final Comparator<JobSpec> OLDEST_FIRST =
      Comparator.comparingDouble(JobSpec::release).thenComparing(JobSpec::home).thenComparing(JobSpec::jobId);

  /** A job that takes no files with it. */
  public JobSpec(String jobId, String home, int cores, long memoryMb, long walltimeSeconds, double release, String payload) {
    this(jobId, home, cores, memoryMb, walltimeSeconds, release, payload, Inputs.NONE);
  }

  /** A job whose run needs no variables of its home's batch system (no array task). */
  public JobSpec(String jobId, String home, int cores, long memoryMb, long walltimeSeconds, double release, String payload, Inputs inputs) {
    this(jobId, home, cores, memoryMb, walltimeSeconds, release, payload, inputs, Map.of());
  }

  /** A job of one task on one node, without GRES. */
  public JobSpec(String jobId, String home, int cores, long memoryMb, long walltimeSeconds, double release, String payload, Inputs inputs,
      Map<String, String> environment) {
    this(jobId, home, cores, memoryMb, walltimeSeconds, release, payload, inputs, environment, JobLayout.ONE);
  }

  /** A job whose home shares no identity with anyone: it runs as the home's pool account. */
  public JobSpec(String jobId, String home, int cores, long memoryMb, long walltimeSeconds, double release, String payload, Inputs inputs,
      Map<String, String> environment, JobLayout layout) {
    this(jobId, home, cores, memoryMb, walltimeSeconds, release, payload, inputs, environment, layout, JobOwner.NONE);
  }

  public JobSpec {
    requireId("job id", jobId);
    requireId("home site", home);
    if (cores < 1 || cores > MAX_CORES) {
      throw new IllegalArgumentException("job " + jobId + ": cores must be in [1, " + MAX_CORES + "], was " + cores);
    }
    if (memoryMb < 0 || memoryMb > MAX_MEMORY_MB) {
      throw new IllegalArgumentException("job " + jobId + ": memory must be in [0, " + MAX_MEMORY_MB + "] MB, was " + memoryMb);
    }
    if (walltimeSeconds < 1 || walltimeSeconds > MAX_WALLTIME_SECONDS) {
      throw new IllegalArgumentException("job " + jobId + ": time limit must be in [1, " + MAX_WALLTIME_SECONDS + "] s, was "
          + walltimeSeconds);
    }
    if (!(release >= 0 && release <= MAX_TIME)) {
      throw new IllegalArgumentException("job " + jobId + ": release time must be in [0, " + MAX_TIME + "] s, was " + release);
    }
    Objects.requireNonNull(payload, "payload");
    if (payload.length() > MAX_PAYLOAD) {
      throw new IllegalArgumentException(
          "job " + jobId + ": payload of " + payload.length() + " characters is over the limit of " + MAX_PAYLOAD
              + "; put large input in a file and pass its name");
    }
    // a record written before jobs took files with them has none
    inputs = inputs == null ? Inputs.NONE : inputs;
    // and none before array tasks travelled
    environment = JobEnvironment.check(jobId, environment);
    // and one node, one task, no GRES before layouts travelled
    layout = layout == null ? JobLayout.ONE : layout;
    if (layout.tasks() > cores || cores % layout.tasks() != 0) {
      throw new IllegalArgumentException("job " + jobId + ": its " + layout.tasks() + " tasks must share its " + cores
          + " cores evenly");
    }
    // and no owner before identity domains
    owner = owner == null ? JobOwner.NONE : owner;
  }

  /** Checks a site or job identifier: letters, digits, '.', '_', '-', at most 128, not starting with punctuation. */
  public static String requireId(String what, String id) {
    if (!isId(id)) {
      throw new IllegalArgumentException(
          what + " '" + id + "' is not a valid identifier (letters, digits, '.', '_', '-'; 1-128; starts with a letter or digit)");
    }
    return id;
  }

  /** The rule of {@link #requireId} by hand: it runs on every record read and every reference made, a regex costs too much there. */
  private static boolean isId(String id) {
    if (id == null || id.isEmpty() || id.length() > 128) {
      return false;
    }
    for (int i = 0; i < id.length(); i++) {
      char c = id.charAt(i);
      boolean alphanumeric = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
      if (!alphanumeric && (i == 0 || (c != '.' && c != '_' && c != '-'))) {
        return false;
      }
    }
    return true;
  }

  public JobRef ref() {
    return new JobRef(home, jobId);
  }

  /** The same job released again at {@code release} (a run lost with its executor). */
  public JobSpec releasedAt(double newRelease) {
    return new JobSpec(jobId, home, cores, memoryMb, walltimeSeconds, newRelease, payload, inputs, environment, layout, owner);
  }
}
