package org.coalition.slurm;

import java.util.OptionalInt;

/**
 * What the handler needs of one Slurm job, whatever the REST version.
 *
 * @param state Slurm's base state in capitals ({@code PENDING}, {@code RUNNING}, {@code COMPLETED} ...)
 * @param cpus the CPUs the job asks for (or holds)
 * @param timeLimitSeconds its time limit, or -1 when it has none (UNLIMITED)
 * @param exitCode the batch script's exit code once it ended
 * @param reason why it waits ({@code JobHeldUser}, {@code Resources} ...), or empty
 */
record SlurmJob(String id, String state, String partition, int cpus, long timeLimitSeconds, OptionalInt exitCode, String reason) {
  SlurmJob withState(String newState) {
    return new SlurmJob(id, newState, partition, cpus, timeLimitSeconds, exitCode, reason);
  }

  boolean pending() {
    return state.equals("PENDING");
  }
}
