package org.coalition.daemon;

import java.util.List;
import java.util.Locale;
import org.coalition.coordination.Claim;
import org.coalition.coordination.JobRef;
import org.coalition.daemon.PilotLifecycle.Effect;
import org.coalition.daemon.PilotLifecycle.Event;
import org.coalition.daemon.PilotLifecycle.Phase;
import org.coalition.handler.PilotHandle;

/**
 * A pilot this broker submitted: its capability, its shape, and where it is in its
 * {@link PilotLifecycle}. The handle and the claim are set as the pilot moves on; the phase changes
 * only through {@link #fire}.
 */
final class Pilot {
  final String id;
  /**
   * Its capability: first the one in the pilot job's environment, replaced by a fresh one handed
   * over with its job (so the one in the environment, which the job's account can read, is void
   * before the job starts).
   */
  volatile String token;
  final String account;
  final int cores;
  final long walltime;
  /** The job it was submitted for (its shape); it may run another one that fits. */
  final JobRef target;
  /** When it was submitted, in the broker's clock's milliseconds. */
  final long submittedMillis;
  private Phase phase = Phase.SUBMITTING;
  volatile PilotHandle handle;
  volatile Claim claim;
  volatile double startedAt;
  /** Where its run's output was stored (a reference), once stored; whether the result was handed in. */
  volatile String output;
  volatile boolean reported;

  Pilot(String id, String token, String account, int cores, long walltime, JobRef target, long submittedMillis) {
    this.id = id;
    this.token = token;
    this.account = account;
    this.cores = cores;
    this.walltime = walltime;
    this.target = target;
    this.submittedMillis = submittedMillis;
  }

  synchronized Phase phase() {
    return phase;
  }

  /** Whether it has not asked for work yet (it waits in the local queue or is starting). */
  synchronized boolean waiting() {
    return phase == Phase.SUBMITTING || phase == Phase.PENDING;
  }

  /**
   * Moves the pilot on {@code event}; returns the effects to carry out.
   *
   * @throws PilotService.PilotRefused when the event is out of order in its phase
   */
  synchronized List<Effect> fire(Event event) {
    Transition<Phase, Effect> t = PilotLifecycle.on(phase, event).orElseThrow(() -> new PilotService.PilotRefused(outOfOrder(event)));
    phase = t.next();
    return t.effects();
  }

  private String outOfOrder(Event event) {
    return event == Event.ASKED ? "pilot " + id + " already asked for work; a pilot runs one job"
        : "pilot " + id + " is " + phase.name().toLowerCase(Locale.ROOT) + ": " + event.name().toLowerCase(Locale.ROOT) + " is out of order";
  }
}
