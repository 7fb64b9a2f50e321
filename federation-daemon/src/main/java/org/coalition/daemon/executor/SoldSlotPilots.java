package org.coalition.daemon.executor;

import java.time.Clock;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.coalition.coordination.Coordination;
import org.coalition.coordination.JobRef;
import org.coalition.coordination.JobSpec;
import org.coalition.daemon.base.BrokerSettings;
import org.coalition.daemon.base.Decisions;
import org.coalition.daemon.base.PilotMargin;
import org.coalition.daemon.base.SoldSlots;
import org.coalition.handler.HandlerException;
import org.coalition.handler.ResourceHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The buyers' pilots in the slots this site sold (docs/decisions/0020-capacity-contracts.md): for
 * each slot open now ({@link SoldSlots}, the market desk's), pilots for the buyer's queued jobs go
 * into the reservation handed to its pool account. Such a pilot is never evicted for local users
 * and takes further jobs while its time lasts ({@link Pilot#reservation}).
 */
final class SoldSlotPilots {
  private static final Logger LOG = LoggerFactory.getLogger(SoldSlotPilots.class);

  /** Submits a pilot shaped like a job, with time beyond its job's, into a reservation; empty (recorded) when the batch system refuses it. */
  interface Submitter {
    Optional<Pilot> submit(JobSpec job, long extraSeconds, String reservation);
  }

  private final SoldSlots sold = new SoldSlots();
  private final BrokerSettings settings;
  private final Coordination coordination;
  private final ResourceHandler handler;
  private final Pilots pilots;
  private final Decisions decisions;
  private final Clock clock;
  private final Map<JobRef, Long> refusedUntil;
  private final Submitter submitter;

  /** Pilots of {@code pilots} submitted through {@code submitter}, passing over the jobs in {@code refusedUntil} (the executor side's). */
  SoldSlotPilots(BrokerSettings settings, Coordination coordination, ResourceHandler handler, Pilots pilots, Decisions decisions, Clock clock,
      Map<JobRef, Long> refusedUntil, Submitter submitter) {
    this.settings = settings;
    this.coordination = coordination;
    this.handler = handler;
    this.pilots = pilots;
    this.decisions = decisions;
    this.clock = clock;
    this.refusedUntil = refusedUntil;
    this.submitter = submitter;
  }

  SoldSlots sold() {
    return sold;
  }

  /** One round: each open slot filled as far as its buyer's queued jobs and its cores go. */
  void round() {
    sold.open().forEach(this::fill);
  }

  /**
   * Submits pilots into a slot this site sold, for its buyer's queued jobs, in DirectContr's order
   * among them, while the block's cores last: outside the exposure threshold and the receive
   * allowance, since the cores are the buyer's for the slot and local jobs cannot have them. Only
   * jobs that run here as the buyer's pool account (the one the reservation admits) and end before
   * the slot does; a pilot there takes no time beyond its job's.
   */
  private void fill(SoldSlots.Slot slot) {
    Optional<String> pool = settings.accountFor(slot.buyer());
    List<Pilot> in = pilots.all().stream().filter(p -> p.reservation.equals(slot.reservation())).toList();
    int left = slot.cores() - in.stream().mapToInt(p -> p.cores).sum();
    long secondsLeft = slot.end().getEpochSecond() - clock.instant().getEpochSecond();
    if (pool.isEmpty() || left <= 0) {
      return;
    }
    Set<JobRef> targeted = new HashSet<>();
    pilots.waiting().forEach(p -> targeted.add(p.target));
    List<JobSpec> fitting = coordination.queue().stream().filter(j -> j.home().equals(slot.buyer()) && !targeted.contains(j.ref())
        && settings.accountFor(j).equals(pool) && j.walltimeSeconds() + PilotMargin.SECONDS <= secondsLeft && settings.spreads(j)
        && settings.takesInputsOf(j) && handler.canHold(j.cores(), Pilots.memoryFor(j), j.layout())).toList();
    for (Candidates order = Candidates.of(fitting, coordination, settings.utility()); order.hasNext() && left > 0; ) {
      Candidates.Pick pick = order.next();
      JobSpec j = pick.job();
      if (j.cores() > left || refusedUntil.getOrDefault(j.ref(), 0L) > clock.millis()) {
        continue;
      }
      Optional<Pilot> pilot;
      try {
        pilot = submitter.submit(j, 0, slot.reservation());
      } catch (HandlerException e) {
        LOG.warn("site {}: the batch system did not take pilots into {} this round ({}); retrying next round", settings.site(),
            slot.reservation(), e.getMessage());
        return;
      }
      if (pilot.isEmpty()) {
        refusedUntil.put(j.ref(), clock.millis() + ExecutorSide.REFUSED_HOLD_MILLIS);
        continue;
      }
      left -= j.cores();
      decisions.record("pilot", "pilot=" + pilot.get().id + " for=" + j.ref(), "sold-slot", "into reservation " + slot.reservation()
          + ", sold to " + slot.buyer() + " until " + slot.end() + ", " + left + " of its cores left; " + pick.reason() + "; runs as "
          + pilot.get().account);
    }
  }
}
