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

  /** A job of one task on one node, without GRES. */
  public HomeJob(String id, String user, String partition, int cpus, long memoryMb, long timeLimitSeconds, boolean held, boolean ready,
      String workDir, String staysHome, Map<String, String> environment) {
    this(id, user, partition, cpus, memoryMb, timeLimitSeconds, held, ready, workDir, staysHome, environment, JobLayout.ONE);
  }

  /** A job that is no array task. */
  public HomeJob(String id, String user, String partition, int cpus, long memoryMb, long timeLimitSeconds, boolean held, boolean ready,
      String workDir, String staysHome) {
    this(id, user, partition, cpus, memoryMb, timeLimitSeconds, held, ready, workDir, staysHome, Map.of());
  }

  /** A job whose working directory is unknown here: it can take no files with it. */
  public HomeJob(String id, String user, String partition, int cpus, long memoryMb, long timeLimitSeconds, boolean held, boolean ready) {
    this(id, user, partition, cpus, memoryMb, timeLimitSeconds, held, ready, "", "");
  }

  /** A job that names no memory. */
  public HomeJob(String id, String user, String partition, int cpus, long timeLimitSeconds, boolean held, boolean ready) {
    this(id, user, partition, cpus, 0, timeLimitSeconds, held, ready);
  }
}
