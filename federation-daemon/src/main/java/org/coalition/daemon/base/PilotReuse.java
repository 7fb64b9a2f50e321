package org.coalition.daemon.base;

import java.time.Duration;
import java.util.Objects;

/**
 * How a site's pilots run more than one job (docs/decisions/0013-fast-in-fast-out.md, step 2): a
 * pilot asks its batch system for its first job's time limit and {@code extraTime} more, and after
 * each run asks its daemon for another job (late binding each time) while its time left, the
 * site's load and its receive allowance allow; with none, it waits up to {@code idleExit} for one
 * and then exits. {@link #NONE}: one job per pilot, which exits at once without work.
 *
 * @param idleExit how long a pilot without work waits for a job before it exits (0 to 10 min)
 * @param extraTime what a pilot asks beyond its first job's time limit (0 to a day)
 */
public record PilotReuse(Duration idleExit, Duration extraTime) {
  /** One job per pilot, no wait: pilots as they were before reuse. */
  public static final PilotReuse NONE = new PilotReuse(Duration.ZERO, Duration.ZERO);
  /**
   * The longest one call for work is held open waiting for a job: under the API's idle timeout
   * (10 s); a pilot that may wait longer asks again.
   */
  static final Duration MAX_WAIT = Duration.ofSeconds(5);

  public PilotReuse {
    Objects.requireNonNull(idleExit, "idleExit");
    Objects.requireNonNull(extraTime, "extraTime");
    if (idleExit.isNegative() || idleExit.compareTo(Duration.ofMinutes(10)) > 0) {
      throw new IllegalArgumentException("a pilot's idle exit must be between 0 and 10 min, was " + idleExit);
    }
    if (extraTime.isNegative() || extraTime.compareTo(Duration.ofDays(1)) > 0) {
      throw new IllegalArgumentException("a pilot's extra time must be between 0 and a day, was " + extraTime);
    }
  }

  /** How long one call for work may wait for a job. */
  public long waitMillis() {
    return Math.min(idleExit.toMillis(), MAX_WAIT.toMillis());
  }
}
