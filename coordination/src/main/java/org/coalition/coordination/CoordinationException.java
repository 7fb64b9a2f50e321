package org.coalition.coordination;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A coordination operation failed. {@link Kind} says what the caller can do: retry later
 * (UNAVAILABLE), drop the run (STALE), fix its input (INVALID), or report a bug (INTERNAL).
 */
public class CoordinationException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public enum Kind {
    /** ZooKeeper unreachable or the session ended; nothing was written, try again later. */
    UNAVAILABLE,
    /** The claim token is no longer the job's claim: stop the run, its result would be refused. */
    STALE,
    /** The caller's input, or a record a peer wrote, is malformed or out of bounds. */
    INVALID,
    /** The caller may not do this (another site's job or data). */
    FORBIDDEN,
    /** Anything else. */
    INTERNAL
  }

  private final Kind kind;

  public CoordinationException(Kind kind, String message) {
    super(message);
    this.kind = kind;
  }

  public CoordinationException(Kind kind, String message, Throwable cause) {
    super(message, cause);
    this.kind = kind;
  }

  public Kind kind() {
    return kind;
  }

  public static CoordinationException stale(Claim claim, String why) {
    return new CoordinationException(Kind.STALE, "claim " + claim.token() + " on job " + claim.ref() + " is stale: " + why);
  }

  /** FORBIDDEN unless {@code owner} is {@code site}: a site writes only its own data. */
  public static void requireOwn(String site, String owner) {
    if (!site.equals(owner)) {
      throw new CoordinationException(Kind.FORBIDDEN, "site " + site + " may not write data of site " + owner);
    }
  }

  /** Checks a batch to publish: 1 to {@link Coordination#MAX_PUBLISH_BATCH} jobs, all of {@code site}, no job twice. */
  public static void requirePublishable(String site, List<JobSpec> jobs) {
    if (jobs.isEmpty() || jobs.size() > Coordination.MAX_PUBLISH_BATCH) {
      throw new CoordinationException(Kind.INVALID, "publish takes 1 to " + Coordination.MAX_PUBLISH_BATCH + " jobs at once, got "
          + jobs.size() + "; split the batch");
    }
    Set<JobRef> seen = new HashSet<>();
    for (JobSpec job : jobs) {
      requireOwn(site, job.home());
      if (!seen.add(job.ref())) {
        throw new CoordinationException(Kind.INVALID, "job " + job.ref() + " is listed twice in one publish");
      }
    }
  }

  /** UNAVAILABLE if the handle of {@code site} is closed. */
  public static void requireOpen(String site, boolean closed) {
    if (closed) {
      throw new CoordinationException(Kind.UNAVAILABLE, "coordination handle of site " + site + " is closed");
    }
  }
}
