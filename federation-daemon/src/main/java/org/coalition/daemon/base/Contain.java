package org.coalition.daemon.base;

import org.coalition.coordination.CoordinationException;
import org.coalition.handler.HandlerException;
import org.slf4j.Logger;

/**
 * Containment for the daemon's rounds: one step, one job or one result that fails is logged with
 * what it was and why, and the rest go on; nothing a peer, a user or the batch system sends can
 * cancel the tick. Only errors after which the VM itself cannot be trusted pass
 * ({@link InternalError}, {@link UnknownError}); an {@link OutOfMemoryError} is contained like the
 * rest, since the allocation that failed is gone with the step that made it.
 */
public final class Contain {
  private Contain() {}

  /** Runs {@code step}; true if it completed, false if it failed (logged with {@code what}). */
  public static boolean run(Logger log, String site, String what, Runnable step) {
    try {
      step.run();
      return true;
    } catch (Throwable t) {
      rethrowIfFatal(t);
      log(log, site, what, t);
      return false;
    }
  }

  /** Logs a contained failure: the expected kinds (the batch system, the store) in one line, the rest with their trace. */
  static void log(Logger log, String site, String what, Throwable t) {
    if (t instanceof CoordinationException || t instanceof HandlerException) {
      log.warn("site {}: {} failed ({}); the next round retries", site, what, t.getMessage());
    } else {
      log.error("site {}: {} failed; skipped, the rest goes on", site, what, t);
    }
  }

  static void rethrowIfFatal(Throwable t) {
    if (t instanceof InternalError || t instanceof UnknownError) {
      throw (Error) t;
    }
  }
}
