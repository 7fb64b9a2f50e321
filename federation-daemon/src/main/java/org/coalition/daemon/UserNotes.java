package org.coalition.daemon;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HashSet;
import java.util.Set;
import org.coalition.handler.HomeQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells a user where their federated job is, in the job itself ({@link HomeQueue#note}; Slurm:
 * its comment, which {@code squeue} and {@code scontrol show job} show): sent to the federation,
 * running at another site since when, and where it ran once it is replayed. A note is a courtesy:
 * one the batch system refuses is logged and never stops a round.
 */
final class UserNotes {
  private static final Logger LOG = LoggerFactory.getLogger(UserNotes.class);
  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'").withZone(ZoneOffset.UTC);

  private final String site;
  private final Clock clock;
  /** Jobs whose note says where they run now: noted once per run. */
  private final Set<String> running = new HashSet<>();

  UserNotes(String site, Clock clock) {
    this.site = site;
    this.clock = clock;
  }

  /** Just parked and published. */
  void queued(HomeQueue h, String jobId) {
    running.remove(jobId);
    note(h, jobId, "in the federation's queue since " + now() + ", held here meanwhile");
  }

  /** Seen claimed by {@code executor} (noted once for each run: a job queued again is noted again). */
  void running(HomeQueue h, String jobId, String executor) {
    if (running.add(jobId)) {
      note(h, jobId, "running at " + executor + " since " + now() + ", held here meanwhile");
    }
  }

  /** Its run at {@code executor} came back, of {@code seconds}; it replays here now. */
  void ran(HomeQueue h, String jobId, String executor, double seconds) {
    running.remove(jobId);
    note(h, jobId, String.format("ran at %s for %.0f s, replayed here at %s", executor, seconds, now()));
  }

  /** No longer this site's in the federation (replayed, withdrawn, gone). */
  void forget(String jobId) {
    running.remove(jobId);
  }

  private String now() {
    return TIME.format(Instant.now(clock));
  }

  private void note(HomeQueue h, String jobId, String text) {
    try {
      h.note(jobId, text);
    } catch (RuntimeException e) {
      LOG.warn("site {}: could not tell the user of job {} where it is ({}): {}", site, jobId, text, e.getMessage());
    }
  }
}
