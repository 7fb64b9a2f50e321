package org.coalition.daemon.executor;

import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import org.coalition.coordination.Claim;
import org.coalition.coordination.Coordination;
import org.coalition.coordination.CoordinationException;
import org.coalition.coordination.JobSpec;
import org.coalition.daemon.base.BrokerMetrics;
import org.coalition.daemon.base.BrokerSettings;
import org.coalition.daemon.base.Decisions;
import org.coalition.daemon.base.PeriodBudget;
import org.coalition.daemon.executor.PilotLifecycle.Event;
import org.coalition.daemon.pilot.PilotService;
import org.coalition.daemon.pilot.PilotService.Assignment;
import org.coalition.handler.QueueObservation;
import org.coalition.policy.text.Numbers;

/**
 * The job a pilot gets when it asks (late binding): the first foreign job in DirectContr's order
 * that fits it, claimed for it then. A pilot without a fitting job waits for one, woken by the
 * queue's changes, up to {@link org.coalition.daemon.base.PilotReuse#waitMillis}. A pilot that has run a job already gets
 * another only while the site would take foreign work now ({@link #heldBack}): no local job
 * waits, the reservation ratio without its own cores is under the exposure threshold, and
 * receive allowance is left; the cores go back to local users otherwise.
 */
final class LateBinding {
  private final BrokerSettings settings;
  private final Coordination coordination;
  private final Pilots pilots;
  private final PilotRecovery recovery;
  private final PilotFiles files;
  private final Decisions decisions;
  private final PeriodBudget budget;
  private final BrokerMetrics metrics;
  private final Clock clock;
  private final QueueSignal signal = new QueueSignal();
  /** The batch system's last observation (each round's): what {@link #heldBack} decides with. */
  private volatile QueueObservation last;

  LateBinding(BrokerSettings settings, Coordination coordination, Pilots pilots, PilotRecovery recovery, PilotFiles files,
      Decisions decisions, PeriodBudget budget, BrokerMetrics metrics, Clock clock) {
    this.settings = settings;
    this.coordination = coordination;
    this.pilots = pilots;
    this.recovery = recovery;
    this.files = files;
    this.decisions = decisions;
    this.budget = budget;
    this.metrics = metrics;
    this.clock = clock;
    coordination.watchQueue(signal::changed);
  }

  /** The local batch system as the last round saw it. */
  void observed(QueueObservation obs) {
    last = obs;
  }

  /** Wakes the pilots waiting for work (the site stops taking work: they get none). */
  void wakeAll() {
    signal.changed();
  }

  /**
   * A job for {@code p}, which has asked ({@link Event#ASKED} fired), claimed now; or, after waiting
   * for one while {@code open} holds, none ({@link Event#NO_WORK} fired, and recorded).
   */
  Optional<Assignment> work(Pilot p, BooleanSupplier open) {
    long deadline = System.nanoTime() + settings.reuse().waitMillis() * 1_000_000;
    Optional<String> held = Optional.empty();
    while (open.getAsBoolean()) {
      long seen = signal.generation();
      held = p.runs() > 0 && p.reservation.isEmpty() ? heldBack(p) : Optional.empty(); // a sold slot's cores are its buyer's
      if (held.isEmpty()) {
        Optional<Assignment> a = claimFor(p);
        if (a.isPresent()) {
          return a;
        }
      }
      long left = (deadline - System.nanoTime()) / 1_000_000;
      if (left <= 0) {
        break;
      }
      try {
        signal.await(seen, left);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    p.fire(Event.NO_WORK);
    if (!open.getAsBoolean()) {
      decisions.record("idle-pilot", "pilot=" + p.id, "closing", "this site stopped taking foreign work while the pilot waited");
    } else if (held.isPresent()) {
      decisions.record("idle-pilot", "pilot=" + p.id, "cores-back", held.get() + "; after " + p.runs() + " jobs its cores go back");
    } else {
      decisions.record("idle-pilot", "pilot=" + p.id, "no-fitting-job", "no queued job fits " + p.cores + " cores, "
          + (p.memoryMb == 0 ? "the site's default memory" : p.memoryMb + " MiB") + " and " + p.secondsLeft(clock.millis()) + " s for account "
          + p.account);
    }
    return Optional.empty();
  }

  /** Why a pilot that has run a job gets no other now, if it does not: local users want the cores, or the allowance is spent. */
  Optional<String> heldBack(Pilot p) {
    QueueObservation obs = last;
    if (obs == null) {
      return Optional.empty();
    }
    int localWaiting = pilots.localJobsWaiting(obs);
    if (localWaiting > 0) {
      return Optional.of(localWaiting + " local jobs wait");
    }
    double ratio = obs.totalCores() == 0 ? 1 : (double) (obs.allocatedCores() - p.cores) / obs.totalCores();
    if (ratio >= settings.exposureThreshold()) {
      return Optional.of(String.format("the reservation ratio without this pilot, %.2f, is not under %.2f", ratio, settings.exposureThreshold()));
    }
    double room = budget.receiveLeft(Pilots.reserved(pilots.waiting()));
    if (room <= 0) {
      return Optional.of("no receive allowance is left this period (" + Numbers.format(room) + " core-seconds)");
    }
    return Optional.empty();
  }

  /** Claims the first fitting job in DirectContr's order for {@code p}, if one is queued. */
  private Optional<Assignment> claimFor(Pilot p) {
    long now = clock.millis();
    List<JobSpec> fitting = coordination.queue().stream().filter(j -> !j.home().equals(settings.site()) && takes(p, j, now)
        && settings.spreads(j) && settings.takesInputsOf(j)).toList();
    for (Candidates order = Candidates.of(fitting, coordination, settings.utility()); order.hasNext(); ) {
      Candidates.Pick pick = order.next();
      JobSpec j = pick.job();
      long claiming = System.nanoTime();
      Optional<Claim> claim = coordination.claim(j.ref());
      if (claim.isEmpty()) {
        continue; // another site was faster, or the home withdrew it
      }
      try {
        coordination.start(claim.get(), coordination.now());
      } catch (CoordinationException e) {
        decisions.record("skip", "job=" + j.ref(), "claim-lost", e.getMessage());
        continue;
      }
      try {
        p.claimed(claim.get(), coordination.now());
      } catch (PilotService.PilotRefused e) {
        // it left while the claim was made (its batch job ended, or was evicted): the pilots round found no claim to give
        // back, so the job goes back now, not when the home sees the claim unrenewed (minutes)
        giveBack(claim.get(), p, e.getMessage());
        throw e;
      }
      metrics.claimed((System.nanoTime() - claiming) / 1e9, p.startedAt() - j.release());
      if (p.reservation.isEmpty()) { // a sold slot's work is the contract's, outside the BILB allowance
        budget.take(PeriodBudget.coreSeconds(j.cores(), j.walltimeSeconds()));
      }
      Optional<String> place = settings.identities().placeFor(j);
      decisions.record("claim", "job=" + j.ref() + " pilot=" + p.id, "directcontr", pick.reason() + (p.runs() > 1 ? "; its job " + p.runs() : "")
          + place.map(d -> "; in place in " + d).orElse(""));
      String fresh = pilots.renew(p);
      recovery.keep(p);
      return Optional.of(files.assignment(j, p.account, fresh, place));
    }
    return Optional.empty();
  }

  /** Releases a claim made for a pilot that can no longer take it; a claim already gone is no error. */
  private void giveBack(Claim claim, Pilot p, String why) {
    decisions.record("release", "job=" + claim.ref(), "pilot-gone", "pilot " + p.id + " left while its job was claimed (" + why
        + "); the job goes back to the queue");
    try {
      coordination.release(claim);
    } catch (CoordinationException e) {
      // lost with the session, or gone meanwhile: the home requeues it either way
    }
  }

  /**
   * Whether {@code p} can run {@code j} at {@code nowMillis}: the account {@code j} runs as here is
   * the pilot's, it fits, and a pilot in a slot this site sold runs only its buyer's jobs (homes
   * that share a pool account do not share the block one of them bought).
   */
  private boolean takes(Pilot p, JobSpec j, long nowMillis) {
    return settings.accountFor(j).map(p.account::equals).orElse(false) && p.fits(j, nowMillis)
        && (p.reservation.isEmpty() || j.home().equals(p.target.home()));
  }

  /**
   * Whether a pilot asking for work now would take {@code j}: then no pilot is submitted for it.
   * The first such pilot is taken out of {@code asking}.
   */
  boolean takenByAsking(List<Pilot> asking, JobSpec j) {
    long now = clock.millis();
    for (Pilot p : asking) {
      if (takes(p, j, now) && (p.runs() == 0 || heldBack(p).isEmpty())) {
        asking.remove(p);
        return true;
      }
    }
    return false;
  }
}
