package org.coalition.policy.fairness;

import java.util.Collection;
import java.util.Optional;

/**
 * Picks which queued job fills a free slot. Callers pass only the jobs that fit the slot. The
 * policy learns what happened through {@link #started} and {@link #finished}; it never reads a
 * clock: {@code now} is always given.
 */
public interface JobSelectionPolicy {
  /** The name used in reports and on the command line, e.g. {@code SIMPL_DIRECT}. */
  String name();

  /** The job to run now, or empty when there is none. */
  Optional<Selection> select(Collection<QueuedJob> fitting, double now);

  /** {@code job} started on {@code executor}'s machines at {@code start}. */
  void started(QueuedJob job, String executor, double start);

  /** The job with this id ended at {@code end}. */
  void finished(String jobId, double end);
}
