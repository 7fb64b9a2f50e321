package org.coalition.slurm;

import java.util.OptionalInt;
import org.coalition.job.JobLayout;

/**
 * What the handler needs of one Slurm job, whatever the REST version.
 *
 * @param state Slurm's base state in capitals ({@code PENDING}, {@code RUNNING}, {@code COMPLETED} ...)
 * @param cpus the CPUs the job asks for (or holds)
 * @param memoryMb the memory it asks for on its node, in MiB ({@code --mem}, or {@code --mem-per-cpu}
 *     times its CPUs); 0 when it names none (the site's default, or a whole node where there is none)
 * @param timeLimitSeconds its time limit, or -1 when it has none (UNLIMITED)
 * @param exitCode the batch script's exit code once it ended
 * @param reason why it waits ({@code JobHeldUser}, {@code Resources} ...), or empty
 * @param user the job's owner
 * @param federable whether the job_submit filter opted it in to the federation (see {@link #federable(String)})
 * @param comment the job's comment (its user's {@code --comment}, with the daemon's note before it while the job is federated)
 * @param workDir the job's working directory ({@code --chdir}, or where it was submitted), or empty when unknown
 * @param staysHome why the job cannot run elsewhere as it asks ({@link SlurmLayout}), or empty
 * @param array where the record stands in an array ({@link SlurmArray#NONE} for a job that is no array task)
 * @param layout its nodes, tasks and GRES per node, as a pilot elsewhere asks for them ({@link SlurmLayout})
 */
record SlurmJob(String id, String state, String partition, int cpus, long memoryMb, long timeLimitSeconds, OptionalInt exitCode, String reason,
    String user, boolean federable, String comment, String workDir, String staysHome, SlurmArray array,
    JobLayout layout) {
  /** A job that is no array task and whose working directory is not known (tests). */
  SlurmJob(String id, String state, String partition, int cpus, long memoryMb, long timeLimitSeconds, OptionalInt exitCode, String reason,
      String user, boolean federable, String comment) {
    this(id, state, partition, cpus, memoryMb, timeLimitSeconds, exitCode, reason, user, federable, comment, "", "", SlurmArray.NONE, JobLayout.ONE);
  }

  /** What the project's job_submit.lua puts at the start of an opted-in job's admin comment (users cannot set it). */
  static final String MARK = "coalition:federable";

  SlurmJob withState(String newState) {
    return new SlurmJob(id, newState, partition, cpus, memoryMb, timeLimitSeconds, exitCode, reason, user, federable, comment, workDir,
        staysHome, array, layout);
  }

  /** The memory a job asks for on its node, from its per-node and per-CPU requests (0 or less: not given). */
  static long memoryMb(long perNode, long perCpu, int cpus) {
    if (perNode > 0) {
      return perNode;
    }
    return perCpu > 0 ? perCpu * Math.max(1, cpus) : 0;
  }

  /**
   * Whether a job is opted in: its admin comment carries the filter's mark, and if it is an array
   * task, the mark names the array as submitted (one marked by an older filter, which could not
   * federate tasks one by one, is not taken) and the array runs no fewer than all its tasks at once
   * ({@code arrayMaxTasks} 0: no {@code %N} limit, which runs elsewhere would not keep).
   */
  static boolean federable(String adminComment, SlurmArray array, long arrayMaxTasks) {
    return federable(adminComment) && (!array.any() || (!array.submitted().isEmpty() && !array.throttled() && arrayMaxTasks == 0));
  }

  /** Whether an admin comment carries the filter's mark. */
  static boolean federable(String adminComment) {
    return adminComment != null && adminComment.startsWith(MARK);
  }

  boolean pending() {
    return state.equals("PENDING");
  }
}
