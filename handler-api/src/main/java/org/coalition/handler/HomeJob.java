package org.coalition.handler;

import java.util.Map;
import org.coalition.job.JobLayout;

/**
 * A job of this site's users that was opted in to the federation (Slurm: the job_submit filter
 * marked it), waiting in the local queue: the daemon may publish it, and run it elsewhere while
 * it is parked here.
 *
 * @param memoryMb the memory it asks for on its node, in MiB; 0 when it names none (a pilot for it
 *     then gets the executing site's default)
 * @param timeLimitSeconds its time limit, or -1 when it has none
 * @param held whether a hold of the kind the daemon parks with keeps it from starting (Slurm: an
 *     administrator's hold). The daemon's own parks are such holds; it tells them from an
 *     administrator's by its own record of what it parked, and never releases a hold it did not make
 * @param ready whether it waits for room alone: not for a dependency, a begin time, or a hold its
 *     user or an administrator put on it, and not to replay a run made elsewhere (released by
 *     {@link HomeQueue#replay}, it waits for a slot to replay in). Only ready jobs are published:
 *     a job that waits for another must not run elsewhere before it, nor run twice.
 * @param workDir its working directory at home, an absolute path (empty: unknown): the folder its
 *     declared inputs are read from, as its user, and its outputs come back to
 * @param staysHome why it cannot run elsewhere as it asks (several nodes, GPUs: "it asks for 2
 *     nodes, ..."), or empty when it can: such a job is never published, and its user is told why
 * @param environment the variables its batch system sets for its run that a run elsewhere must
 *     see too: an array task's numbers ({@code SLURM_ARRAY_TASK_ID} ...; bounded as the federation
 *     bounds them, {@code JobEnvironment}); empty for a job that is no array task
 * @param layout its nodes, tasks and the GRES it needs on each node ({@link JobLayout#ONE} for one task on one node without GRES)
 */
public record HomeJob(String id, String user, String partition, int cpus, long memoryMb, long timeLimitSeconds, boolean held,
    boolean ready, String workDir, String staysHome, Map<String, String> environment, JobLayout layout) {
  public HomeJob {
    environment = Map.copyOf(environment);
    layout = layout == null ? JobLayout.ONE : layout;
  }

  /** The same job under another id (a site of several batch systems names it {@code SYSTEM.ID}). */
  public HomeJob withId(String newId) {
    return new HomeJob(newId, user, partition, cpus, memoryMb, timeLimitSeconds, held, ready, workDir, staysHome, environment, layout);
  }

  /**
   * A job to fill in by name from {@code id}, {@code user}; what is not set is
   * the default partition (empty), one CPU, no memory named, no time limit (-1), not held,
   * ready, no working directory known, nothing keeping it home, no variables, one task on one node.
   */
  public static Builder builder(String id, String user) {
    return new Builder(id, user);
  }

  /** A builder holding this job, to change some of it. */
  public Builder toBuilder() {
    Builder b = new Builder(id, user);
    b.partition = partition;
    b.cpus = cpus;
    b.memoryMb = memoryMb;
    b.timeLimitSeconds = timeLimitSeconds;
    b.held = held;
    b.ready = ready;
    b.workDir = workDir;
    b.staysHome = staysHome;
    b.environment = environment;
    b.layout = layout;
    return b;
  }

  /** A {@link HomeJob} filled in by name ({@link HomeJob#builder}); {@link #build} checks it as the constructor does. */
  public static final class Builder {
    private final String id;
    private final String user;
    private String partition = "";
    private int cpus = 1;
    private long memoryMb;
    private long timeLimitSeconds = -1;
    private boolean held;
    private boolean ready = true;
    private String workDir = "";
    private String staysHome = "";
    private Map<String, String> environment = Map.of();
    private JobLayout layout = JobLayout.ONE;

    private Builder(String id, String user) {
      this.id = id;
      this.user = user;
    }

    public Builder partition(String value) {
      partition = value;
      return this;
    }

    public Builder cpus(int value) {
      cpus = value;
      return this;
    }

    public Builder memoryMb(long value) {
      memoryMb = value;
      return this;
    }

    public Builder timeLimitSeconds(long value) {
      timeLimitSeconds = value;
      return this;
    }

    public Builder held(boolean value) {
      held = value;
      return this;
    }

    public Builder ready(boolean value) {
      ready = value;
      return this;
    }

    public Builder workDir(String value) {
      workDir = value;
      return this;
    }

    public Builder staysHome(String value) {
      staysHome = value;
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

    public HomeJob build() {
      return new HomeJob(id, user, partition, cpus, memoryMb, timeLimitSeconds, held, ready, workDir, staysHome, environment, layout);
    }
  }
}
