package org.coalition.daemon.executor;

import org.coalition.coordination.Claim;
import org.coalition.coordination.Coordination;
import org.coalition.daemon.base.Decisions;
import org.coalition.daemon.outputs.RunOutputs;
import org.coalition.daemon.pilot.PilotService.PilotRefused;
import org.coalition.daemon.pilot.PilotService.RunOutcome;
import org.coalition.policy.text.Numbers;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A pilot's report of its run: the output stored once (a retry after a failed hand-in reuses it),
 * the result handed to the federation with start and end on this daemon's clock, and the pilot's
 * journal entry kept at each step, so a restart between them neither loses the run nor reports it twice.
 */
final class RunReports {
  private static final Logger LOG = LoggerFactory.getLogger(RunReports.class);

  private final Coordination coordination;
  private final RunOutputs outputs;
  private final PilotFiles files;
  private final PilotRecovery recovery;
  private final Decisions decisions;

  RunReports(Coordination coordination, RunOutputs outputs, PilotFiles files, PilotRecovery recovery, Decisions decisions) {
    this.coordination = coordination;
    this.outputs = outputs;
    this.files = files;
    this.recovery = recovery;
    this.decisions = decisions;
  }

  /** Takes {@code p}'s report of {@code outcome}; refused for a pilot that holds no job or whose run was evicted. */
  void report(Pilot p, RunOutcome outcome) {
    Claim c = p.claim();
    if (c == null) {
      throw new PilotRefused("pilot " + p.id + " has no job to finish");
    }
    if (p.reported()) {
      return; // a retry after an answer that got lost: the run is in already
    }
    if (p.phase() == PilotLifecycle.Phase.EVICTING) {
      throw new PilotRefused("pilot " + p.id + "'s run was evicted for local users: its job goes back to the queue, and the run counts for nothing");
    }
    recovery.requireAdopted(p);
    // stored once: a retry after a failed hand-in reuses it rather than storing the output again
    RunOutputs.Stored stored;
    try {
      stored = p.output() != null ? new RunOutputs.Stored(p.output(), outputs.checksum(p.output()))
          : files.store(p.id, c, outcome.stdout(), outcome.stderr());
    } catch (RunOutputs.SpoolFull e) {
      LOG.warn("site {}: the output of {} (pilot {}) cannot be stored now: {}; the pilot keeps it and reports again", coordination.site(),
          c.ref(), p.id, e.getCause().getMessage());
      throw e;
    }
    String ref = stored.reference();
    p.stored(ref);
    recovery.keep(p);
    // start and end on this daemon's federation clock: a pilot's own clock may be off, and it does not know the epoch
    double end = Math.max(p.startedAt(), coordination.now());
    coordination.finish(c, outcome.result(p.startedAt(), end, ref, stored.sha256()));
    p.reportedRun();
    recovery.keep(p);
    decisions.record("finish", "job=" + c.ref() + " pilot=" + p.id, "ran-here", outcome.ended() + " after " + Numbers.format(end - p.startedAt())
        + " s");
  }
}
