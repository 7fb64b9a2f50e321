package org.coalition.daemon.executor;

import java.lang.management.ManagementFactory;
import org.coalition.coordination.Claim;
import org.coalition.coordination.Coordination;
import org.coalition.coordination.CoordinationException;
import org.coalition.coordination.JobRef;
import org.coalition.daemon.base.Decisions;
import org.coalition.policy.text.Numbers;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What lets a daemon restart without costing the foreign runs it hosts: every pilot's state goes
 * to the {@link PilotJournal} as it changes, and a restarted daemon takes the journaled pilots
 * back and adopts their claims under its new ZooKeeper session ({@link Coordination#adopt}).
 * docs/decisions/0011-durable-work.md tells the whole story.
 */
final class PilotRecovery {
  private static final Logger LOG = LoggerFactory.getLogger(PilotRecovery.class);

  private final String site;
  private final Coordination coordination;
  private final Pilots pilots;
  private final PilotJournal journal;
  private final Decisions decisions;

  PilotRecovery(String site, Coordination coordination, Pilots pilots, PilotJournal journal, Decisions decisions) {
    this.site = site;
    this.coordination = coordination;
    this.pilots = pilots;
    this.journal = journal;
    this.decisions = decisions;
  }

  /**
   * Takes back the pilots the journal kept (a restart, docs/decisions/0011-durable-work.md):
   * pending ones are followed again, running ones have their claims adopted under this daemon's
   * new session. A claim the store cannot be asked about now is adopted later (the next round,
   * or the pilot's next call); one its home has requeued meanwhile is lost, and the pilot is told
   * so at its next heartbeat. Pilots the journal caught while being submitted are forgotten: no
   * batch job is known for them, and one that runs anyway is refused when it asks.
   */
  void recover() {
    long began = System.nanoTime();
    int pending = 0;
    int running = 0;
    int adopted = 0;
    int lost = 0;
    int reported = 0;
    for (PilotJournal.Entry e : journal.load()) {
      Pilot p = Pilot.restored(e);
      if (p.handle() == null || p.phase() == PilotLifecycle.Phase.SUBMITTING) {
        forget(p.id);
        continue;
      }
      pilots.restore(p);
      if (!p.adopting()) {
        pending += p.waiting() ? 1 : 0;
        continue;
      }
      running++;
      Adoption a = settle(p);
      adopted += a == Adoption.ADOPTED ? 1 : 0;
      lost += a == Adoption.LOST ? 1 : 0;
      reported += a == Adoption.REPORTED ? 1 : 0;
    }
    if (pending + running > 0) {
      LOG.info("site {}: took back {} pending and {} running pilots from the journal; {} claims adopted, {} lost, {} reported before the"
          + " restart, {} to adopt later, in {} ms ({} s after the daemon's start)", site, pending, running, adopted, lost, reported,
          running - adopted - lost - reported,
          (System.nanoTime() - began) / 1_000_000,
          Numbers.format(ManagementFactory.getRuntimeMXBean().getUptime() / 1000.0));
    }
  }

  /**
   * How an adoption went: the claim is this daemon's again, it was lost (requeued by its home),
   * its run's result was in already (handed in just before the restart), or the store could not be asked.
   */
  private enum Adoption { ADOPTED, LOST, REPORTED, LATER }

  /**
   * Adopts {@code p}'s claim if it still waits for it. True when settled (adopted, or lost and
   * recorded); false when the store could not be asked (tried again later).
   */
  boolean adopt(Pilot p) {
    return settle(p) != Adoption.LATER;
  }

  /** One attempt, under the pilot's lock: the round and the pilot's own call may try at once. */
  private Adoption settle(Pilot p) {
    synchronized (p) {
      if (!p.adopting()) {
        return Adoption.ADOPTED;
      }
      Claim c = p.claim();
      Adoption outcome;
      try {
        if (!coordination.adopt(c)) {
          decisions.record("adopt", job(c.ref()) + " pilot=" + p.id, "reported-before-restart", "the run's result was handed in just before"
              + " this daemon restarted; nothing to take back, nothing lost");
          p.foundReported();
          keep(p);
          return Adoption.REPORTED;
        }
        decisions.record("adopt", job(c.ref()) + " pilot=" + p.id, "restarted", "the run went on while this daemon restarted; claim "
            + c.token() + " is held again");
        outcome = Adoption.ADOPTED;
      } catch (CoordinationException e) {
        if (e.kind() != CoordinationException.Kind.STALE) {
          LOG.info("site {}: cannot adopt the claim of pilot {} on {} yet ({}); trying again", site, p.id, c.ref(), e.getMessage());
          return Adoption.LATER;
        }
        decisions.record("kill-run", job(c.ref()) + " pilot=" + p.id, "claim-lost-in-restart", e.getMessage());
        outcome = Adoption.LOST;
      }
      p.adopted();
      return outcome;
    }
  }

  /** A pilot whose claim waits to be adopted makes its caller ask again (503): the store could not be asked yet. */
  void requireAdopted(Pilot p) {
    if (!adopt(p)) {
      throw new CoordinationException(CoordinationException.Kind.UNAVAILABLE, "this daemon restarted and cannot take back the claim of pilot "
          + p.id + " yet; ask again");
    }
  }

  /** Records {@code p} in the journal; a journal that cannot be written costs only the pilot's run if this daemon restarts. */
  void keep(Pilot p) {
    try {
      journal.save(p.entry());
    } catch (RuntimeException e) {
      LOG.warn("site {}: pilot {} is not journaled ({}); a restart of this daemon now would cost its run", site, p.id, e.getMessage());
    }
  }

  /** Drops pilot {@code id} from the journal (its batch job ended, or none is known for it). */
  void forget(String id) {
    try {
      journal.remove(id);
    } catch (RuntimeException e) {
      LOG.warn("site {}: pilot {} stays in the journal ({}); the next start forgets it", site, id, e.getMessage());
    }
  }

  private static String job(JobRef ref) {
    return "job=" + ref;
  }
}
