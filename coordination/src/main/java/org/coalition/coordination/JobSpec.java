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

  /**
   * A job to fill in by name from {@code jobId}, {@code home}; what is not set is
   * one core, no memory named, released at 0, an empty payload, no inputs, no variables, one task
   * on one node ({@link JobLayout#ONE}) and no owner ({@link JobOwner#NONE}); its time limit must be set.
   */
  public static Builder builder(String jobId, String home) {
    return new Builder(jobId, home);
  }

  /** A builder holding this job, to change some of it. */
  public Builder toBuilder() {
    Builder b = new Builder(jobId, home);
    b.cores = cores;
    b.memoryMb = memoryMb;
    b.walltimeSeconds = walltimeSeconds;
    b.release = release;
    b.payload = payload;
    b.inputs = inputs;
    b.environment = environment;
    b.layout = layout;
    b.owner = owner;
    return b;
  }

  /** A {@link JobSpec} filled in by name ({@link JobSpec#builder}); {@link #build} checks it as the constructor does. */
  public static final class Builder {
    private final String jobId;
    private final String home;
    private int cores = 1;
    private long memoryMb;
    private long walltimeSeconds;
    private double release;
    private String payload = "";
    private Inputs inputs = Inputs.NONE;
    private Map<String, String> environment = Map.of();
    private JobLayout layout = JobLayout.ONE;
    private JobOwner owner = JobOwner.NONE;

    private Builder(String jobId, String home) {
      this.jobId = jobId;
      this.home = home;
    }

    public Builder cores(int value) {
      cores = value;
      return this;
    }

    public Builder memoryMb(long value) {
      memoryMb = value;
      return this;
    }

    public Builder walltimeSeconds(long value) {
      walltimeSeconds = value;
      return this;
    }

    public Builder release(double value) {
      release = value;
      return this;
    }

    public Builder payload(String value) {
      payload = value;
      return this;
    }

    public Builder inputs(Inputs value) {
      inputs = value;
      return this;
    }

    public Builder environment(Map<String, String> value) {
      environment = value;
      return this;
    }

    public Builder layout(JobLayout value) {
      layout = value;
      return this;
    }

    public Builder owner(JobOwner value) {
      owner = value;
      return this;
    }

    public JobSpec build() {
      return new JobSpec(jobId, home, cores, memoryMb, walltimeSeconds, release, payload, inputs, environment, layout, owner);
    }
  }
}
