package org.coalition.daemon.executor;

import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.coalition.coordination.Claim;
import org.coalition.coordination.Coordination;
import org.coalition.coordination.JobRef;
import org.coalition.daemon.base.BrokerSettings;
import org.coalition.daemon.base.Decisions;
import org.coalition.handler.HandlerException;
import org.coalition.handler.QueueObservation;
import org.coalition.handler.ResourceHandler;
import org.coalition.policy.text.Numbers;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Local users get their cores back (docs/decisions/0013-fast-in-fast-out.md, step 5): when local
 * jobs wait and the reservation ratio is at or over the exposure threshold, foreign runs are
 * evicted, those of the homes with the lowest DirectContr priority first (the newest run first
 * among one home's: it has done the least), until the ratio without them is under the threshold.
 * Through the batch system: the pilot's job is cancelled (Slurm signals every process of it and
 * kills what is left after its {@code KillWait}: the grace), and once its end is seen its claim is
 * released, so the job goes back to the federation queue and runs again elsewhere or at home. An
 * evicted run hands in no result: it credits nothing, and is not in its home's utility.
 *
 * <p>One wave at a time: after an eviction no more is decided until the batch system has reported
 * the end of every pilot evicted and one more observation has been taken (or
 * {@link #WAVE_LIMIT_MILLIS} have passed): while their cores come back they still look allocated, and a local job that takes
 * them at once keeps them so.
 *
 * <p>A site whose batch system preempts the pilots' partition for local jobs
 * ({@link BrokerSettings#batchSystemEvicts}) evicts nothing here: two deciders would take twice
 * the cores. Its pilots, stopped, report no run (PilotAgent), and the claims are released once the
 * batch system reports their end, as here.
 */
final class Eviction {
  private static final Logger LOG = LoggerFactory.getLogger(Eviction.class);
  /** The longest an eviction wave holds the next one back: Slurm's default KillWait (30 s) and a margin. */
  static final long WAVE_LIMIT_MILLIS = 120_000;

  private final BrokerSettings settings;
  private final Coordination coordination;
  private final ResourceHandler handler;
  private final Pilots pilots;
  private final Decisions decisions;
  private final Clock clock;
  /** The pilots of the last wave whose end the batch system has not reported yet. */
  private final Set<String> wave = new HashSet<>();
  private long waveEndsMillis;

  Eviction(BrokerSettings settings, Coordination coordination, ResourceHandler handler, Pilots pilots, Decisions decisions, Clock clock) {
    this.clock = clock;
    this.settings = settings;
    this.coordination = coordination;
    this.handler = handler;
    this.pilots = pilots;
    this.decisions = decisions;
  }

  /** Evicts what {@code obs} calls for: nothing while no local job waits or the ratio is under the threshold. */
  void round(QueueObservation obs) {
    if (settings.batchSystemEvicts() || waveGoesOn()) {
      return;
    }
    int localWaiting = pilots.localJobsWaiting(obs);
    double ratio = obs.reservationRatio();
    if (localWaiting <= 0 || ratio < settings.exposureThreshold()) {
      return;
    }
    // each pilot's state read once: it moves on, on another thread, at any moment (its claim is cleared when it asks again)
    Map<Pilot, Claim> running = new HashMap<>();
    for (Pilot p : pilots.all()) {
      Pilot.State s = p.state();
      // a pilot in a slot this site sold runs on its buyer's cores, which local jobs cannot have: never evicted for them
      if ((s.phase() == PilotLifecycle.Phase.RUNNING || s.phase() == PilotLifecycle.Phase.HANDED) && s.claim() != null && s.handle() != null
          && p.reservation.isEmpty()) {
        running.put(p, s.claim());
      }
    }
    if (running.isEmpty()) {
      return;
    }
    int allocated = obs.allocatedCores();
    Map<String, Double> priorities = Candidates.priorities(coordination, settings.utility());
    for (Pilot p : order(running, priorities)) {
      if ((double) allocated / obs.totalCores() < settings.exposureThreshold()) {
        break;
      }
      JobRef job = running.get(p).ref();
      // EVICTING before the cancel goes out: a report its signal brings on is refused, a heartbeat told to stop
      if (!p.evicted()) {
        continue; // it moved on since it was read (its run reported, its batch job seen ending)
      }
      try {
        handler.cancel(p.handle());
      } catch (HandlerException e) {
        p.fire(PilotLifecycle.Event.EVICT_FAILED);
        LOG.warn("site {}: cannot evict pilot {} now ({}); the next round tries again", settings.site(), p.id, e.getMessage());
        return;
      }
      allocated -= p.cores;
      wave.add(p.id);
      waveEndsMillis = clock.millis() + WAVE_LIMIT_MILLIS;
      decisions.record("evict", "job=" + job + " pilot=" + p.id, "local-demand", String.format(
          "%d local jobs wait and the reservation ratio is %.2f, not under %.2f; home %s has priority %s, the lowest of the runs here;"
              + " %d cores go back", localWaiting, ratio, settings.exposureThreshold(), job.home(),
          Numbers.format(priorities.getOrDefault(job.home(), 0.0)), p.cores));
    }
  }

  /**
   * Whether the last wave's cores may still be on their way back: some of its pilots have not
   * ended, or they ended during this round, whose observation may be older than their end.
   */
  private boolean waveGoesOn() {
    if (wave.isEmpty()) {
      return false;
    }
    if (clock.millis() > waveEndsMillis) {
      wave.clear();
      return false;
    }
    wave.removeIf(id -> pilots.all().stream().noneMatch(p -> p.id.equals(id)));
    return true;
  }

  /**
   * The pilots of {@code running} (each with the claim of its run) in the order they are evicted:
   * their homes' priority, lowest first; among one home's, the newest run first.
   */
  static List<Pilot> order(Map<Pilot, Claim> running, Map<String, Double> priorities) {
    List<Pilot> out = new ArrayList<>(running.keySet());
    out.sort(Comparator.<Pilot>comparingDouble(p -> priorities.getOrDefault(running.get(p).ref().home(), 0.0))
        .thenComparing(Comparator.<Pilot>comparingDouble(Pilot::startedAt).reversed()));
    return out;
  }
}
