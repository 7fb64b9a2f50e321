package org.coalition.slurm;

import java.util.OptionalInt;

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
 * @param staysHome why the job cannot run elsewhere as it asks ({@link #staysHome(long, String...)}), or empty
 * @param array where the record stands in an array ({@link SlurmArray#NONE} for a job that is no array task)
 */
record SlurmJob(String id, String state, String partition, int cpus, long memoryMb, long timeLimitSeconds, OptionalInt exitCode, String reason,
    String user, boolean federable, String comment, String workDir, String staysHome, SlurmArray array) {
  /** A job that is no array task and whose working directory is not known (tests). */
  SlurmJob(String id, String state, String partition, int cpus, long memoryMb, long timeLimitSeconds, OptionalInt exitCode, String reason,
      String user, boolean federable, String comment) {
    this(id, state, partition, cpus, memoryMb, timeLimitSeconds, exitCode, reason, user, federable, comment, "", "", SlurmArray.NONE);
  }

  /**
   * Why a job of {@code nodes} nodes (its node count; 0 or less: not known) and with the TRES
   * requests {@code tres} ({@code tres_per_node}, {@code tres_per_job}, {@code tres_per_task}:
   * {@code gres/gpu:1}, {@code cpu:4}...) cannot run elsewhere: jobs run on one node without
   * GPUs or other GRES (docs/jobs.md); empty when it can. CPUs per task are no GRES.
   */
  static String staysHome(long nodes, String... tres) {
    if (nodes > 1) {
      return "it asks for " + nodes + " nodes, and jobs run elsewhere on one node";
    }
    for (String t : tres) {
      for (String item : t == null ? new String[0] : t.split(",")) {
        if (!item.isBlank() && !item.matches("cpu[:=].*")) {
          return "it asks for " + item.strip() + ", and jobs run elsewhere without GPUs or other GRES";
        }
      }
    }
    return "";
  }

  /** What the project's job_submit.lua puts at the start of an opted-in job's admin comment (users cannot set it). */
  static final String MARK = "coalition:federable";

  SlurmJob withState(String newState) {
    return new SlurmJob(id, newState, partition, cpus, memoryMb, timeLimitSeconds, exitCode, reason, user, federable, comment, workDir,
        staysHome, array);
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
