package org.coalition.daemon.home;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.coalition.handler.HomeQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells a user where their federated job is, in the job itself ({@link HomeQueue#note}; Slurm:
 * its comment, which {@code squeue} and {@code scontrol show job} show): sent to the federation,
 * running at another site since when, and where it ran once it is replayed. A note is a courtesy:
 * one the batch system refuses is logged and never stops a round. Notes of different jobs may be
 * made at once (a burst of results replayed in parallel).
 */
final class UserNotes {
  private static final Logger LOG = LoggerFactory.getLogger(UserNotes.class);
  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'").withZone(ZoneOffset.UTC);

  private final String site;
  private final Clock clock;
  /** Where each job's note says it is: the site running it, or empty for the federation's queue. */
  private final Map<String, String> where = new ConcurrentHashMap<>();
  /** Jobs whose note failed since their last one that went in: logged once at WARN, then at DEBUG while it keeps failing. */
  private final Set<String> failing = ConcurrentHashMap.newKeySet();

  UserNotes(String site, Clock clock) {
    this.site = site;
    this.clock = clock;
  }

  /** Just parked and published. */
  void queued(HomeQueue h, String jobId) {
    where.put(jobId, "");
    note(h, jobId, "in the federation's queue since " + now() + ", held here meanwhile");
  }

  /**
   * Seen in the federation, claimed by {@code executor} (empty: queued): noted when that changes,
   * so a run given up and its job queued again, or claimed by another site, is told too.
   */
  void seen(HomeQueue h, String jobId, String executor) {
    String before = where.put(jobId, executor);
    if (!executor.equals(before) && !(before == null && executor.isEmpty())) { // queued when this daemon started: its note stands
      boolean told = note(h, jobId, executor.isEmpty() ? "back in the federation's queue since " + now() + ", held here meanwhile"
          : "running at " + executor + " since " + now() + ", held here meanwhile");
      if (!told) {
        where.put(jobId, before == null ? "" : before); // tried again next round (a missed first note: from the queue)
      }
    }
  }

  /** Its run at {@code executor} came back, of {@code seconds}; it replays here now. */
  void ran(HomeQueue h, String jobId, String executor, double seconds) {
    where.remove(jobId);
    note(h, jobId, String.format("ran at %s for %.0f s, replayed here at %s", executor, seconds, now()));
  }

  /** It cannot go out, for {@code reason} (its inputs): it runs here. */
  void stays(HomeQueue h, String jobId, String reason) {
    note(h, jobId, "stays here: " + (reason.length() <= 200 ? reason : reason.substring(0, 200) + "..."));
  }

  /** No longer this site's in the federation (replayed, withdrawn, gone). */
  void forget(String jobId) {
    where.remove(jobId);
    failing.remove(jobId);
  }

  private String now() {
    return TIME.format(Instant.now(clock));
  }

  private boolean note(HomeQueue h, String jobId, String text) {
    try {
      h.note(jobId, text);
      failing.remove(jobId);
      return true;
    } catch (RuntimeException e) {
      if (failing.add(jobId)) {
        LOG.warn("site {}: could not tell the user of job {} where it is ({}): {}; trying again each round", site, jobId, text,
            e.getMessage());
      } else {
        LOG.debug("site {}: could not tell the user of job {} where it is: {}", site, jobId, e.getMessage());
      }
      return false;
    }
  }
}
