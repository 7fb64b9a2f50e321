package org.coalition.slurm;

/**
 * A job of this site's users that the job_submit filter opted in to the federation, waiting in
 * the queue: the daemon may publish it, and run it elsewhere while it is parked here.
 *
 * @param timeLimitSeconds its time limit, or -1 when it has none
 */
public record HomeJob(String id, String user, String partition, int cpus, long timeLimitSeconds) {
  static HomeJob of(SlurmJob j) {
    return new HomeJob(j.id(), j.user(), j.partition(), j.cpus(), j.timeLimitSeconds());
  }
}
