package org.coalition.policy.fairness;

import java.util.Comparator;
import java.util.Objects;

/** A job waiting in the federation queue, as the selection policies see it. */
public record QueuedJob(String id, String home, double release, int cores) {
  /** Longest waiting first; the id breaks ties, so the order is total and deterministic. */
  public static final Comparator<QueuedJob> LONGEST_WAITING =
      Comparator.comparingDouble(QueuedJob::release).thenComparing(QueuedJob::id);

  public QueuedJob {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(home, "home");
    if (cores <= 0) {
      throw new IllegalArgumentException("job " + id + ": cores must be positive, was " + cores);
    }
    if (!Double.isFinite(release)) {
      throw new IllegalArgumentException("job " + id + ": release time must be finite, was " + release);
    }
  }
}
