package org.coalition.handler;

/**
 * A job of this site's users that was opted in to the federation (Slurm: the job_submit filter
 * marked it), waiting in the local queue: the daemon may publish it, and run it elsewhere while
 * it is parked here.
 *
 * @param timeLimitSeconds its time limit, or -1 when it has none
 * @param parked whether the daemon holds it (it waits for a run elsewhere, not for local room)
 */
public record HomeJob(String id, String user, String partition, int cpus, long timeLimitSeconds, boolean parked) {}
