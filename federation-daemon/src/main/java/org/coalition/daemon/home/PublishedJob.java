package org.coalition.daemon.home;

import org.coalition.coordination.JobSpec;
import org.coalition.daemon.home.PublishedJobLifecycle.Phase;

/**
 * Where one of this site's opted-in jobs is in its {@link PublishedJobLifecycle}, and what only
 * the home knows of it, at one moment. Immutable; {@link PublishedJobs} replaces it whole.
 *
 * @param id the job's id in the local batch system
 * @param phase where it is
 * @param firstSeenMillis when it was first seen ready (the broker's clock's milliseconds): publish-after counts from then
 * @param spec what was published, once it was (null before)
 * @param reason why it stays home, in phase KEPT (null otherwise)
 */
record PublishedJob(String id, Phase phase, long firstSeenMillis, JobSpec spec, String reason) {
  /** A job this daemon does not follow (phase LOCAL): no record is kept of it. */
  static PublishedJob local(String id) {
    return new PublishedJob(id, Phase.LOCAL, -1, null, null);
  }

  PublishedJob with(Phase p) {
    return new PublishedJob(id, p, firstSeenMillis, spec, reason);
  }

  PublishedJob seenAt(long millis) {
    return new PublishedJob(id, phase, millis, spec, reason);
  }

  PublishedJob withSpec(JobSpec s) {
    return new PublishedJob(id, phase, firstSeenMillis, s, reason);
  }

  PublishedJob withReason(String why) {
    return new PublishedJob(id, phase, firstSeenMillis, spec, why);
  }
}
