package org.coalition.daemon.executor;

import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.coalition.coordination.Claim;
import org.coalition.coordination.Coordination;
import org.coalition.coordination.CoordinationException;
import org.coalition.coordination.JobRef;
import org.coalition.coordination.JobSpec;
import org.coalition.daemon.base.BrokerMetrics;
import org.coalition.daemon.base.BrokerSettings;
import org.coalition.daemon.base.Contain;
import org.coalition.daemon.base.Decisions;
import org.coalition.daemon.base.PeriodBudget;
import org.coalition.daemon.base.PilotMargin;
import org.coalition.daemon.base.SoldSlots;
import org.coalition.daemon.executor.PilotLifecycle.Effect;
import org.coalition.daemon.executor.PilotLifecycle.Event;
import org.coalition.daemon.outputs.PeerDownload;
import org.coalition.daemon.outputs.RunOutputs;
import org.coalition.daemon.pilot.PilotAgent;
import org.coalition.daemon.pilot.PilotService;
import org.coalition.handler.HandlerException;
import org.coalition.handler.PilotHandle;
import org.coalition.handler.PilotSpec;
import org.coalition.handler.PilotStatus;
import org.coalition.handler.QueueObservation;
import org.coalition.handler.ResourceHandler;
import org.coalition.policy.text.Numbers;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The executor side of a site (events 2 and 3 of DESIGN.md, and the pilot protocol): while the
 * site has idle capacity and receive allowance, a pilot shaped like a waiting foreign job goes
 * into the local queue; when it starts it asks for work and DirectContr picks the job then (late
 * binding); it heartbeats and reports the end. Pilots move through {@link PilotLifecycle}.
 */
public final class ExecutorSide implements PilotService, PilotTokens {
  private static final Logger LOG = LoggerFactory.getLogger(ExecutorSide.class);
  /** How long a job whose pilot the batch system refused is passed over. */
  static final long REFUSED_HOLD_MILLIS = 10 * 60_000;

  private final BrokerSettings settings;
  private final Coordination coordination;
  private final ResourceHandler handler;
  private final PilotFiles files;
  private final Decisions decisions;
  private final PeriodBudget budget;
  private final Pilots pilots;
  private final PilotRecovery recovery;
  private final LateBinding binding;
  private final Eviction eviction;
  private final BrokerMetrics metrics;
  private final Clock clock;
  private final RunReports reports;
  /** Pilots into the slots this site sold that are open now. */
  private final SoldSlotPilots soldSlots;
  /** Jobs whose pilot the batch system refused, and until when (clock millis) they are passed over. */
  private final Map<JobRef, Long> refusedUntil = new HashMap<>();
  private volatile boolean draining;
  /** A clean stop has begun: no pilot is handed work any more. */
  private volatile boolean stopping;

  public ExecutorSide(BrokerSettings settings, Coordination coordination, ResourceHandler handler, RunOutputs outputs, Decisions decisions,
      PeriodBudget budget, PilotJournal journal, BrokerMetrics metrics, Clock clock, PeerDownload download) {
    this.settings = settings;
    this.coordination = coordination;
    this.handler = handler;
    this.files = new PilotFiles(settings, coordination, outputs, download);
    this.decisions = decisions;
    this.budget = budget;
    this.pilots = new Pilots(settings.site());
    this.recovery = new PilotRecovery(settings.site(), coordination, pilots, journal, decisions);
    this.binding = new LateBinding(settings, coordination, pilots, recovery, files, decisions, budget, metrics, clock);
    this.eviction = new Eviction(settings, coordination, handler, pilots, decisions, clock);
    this.metrics = metrics;
    this.clock = clock;
    this.reports = new RunReports(coordination, outputs, files, recovery, decisions);
    this.soldSlots = new SoldSlotPilots(settings, coordination, handler, pilots, decisions, clock, refusedUntil, this::submit);
  }

  /** The slots this site sold that are open now, which the market desk keeps and this side fills with their buyers' pilots. */
  public SoldSlots sold() {
    return soldSlots.sold();
  }

  public Pilots pilots() {
    return pilots;
  }

  public PilotFiles files() {
    return files;
  }

  /** Takes back the journaled pilots after a restart ({@link PilotRecovery#recover}). */
  public void recover() {
    recovery.recover();
  }

  /** Follows the submitted pilots in the batch system: ended ones are forgotten, ones pending too long cancelled. */
  public void pilotsRound() {
    pilots.all().forEach(recovery::adopt);
    List<Pilot> submitted = pilots.all().stream().filter(p -> p.handle() != null).toList();
    if (submitted.isEmpty()) {
      return;
    }
    Map<PilotHandle, PilotStatus> states = handler.statuses(submitted.stream().map(p -> p.handle()).toList());
    for (Pilot p : submitted) {
      PilotStatus s = states.get(p.handle());
      Optional<Event> event = s == null ? Optional.of(Event.BATCH_ENDED) : switch (s.state()) {
        case FAILED -> Optional.of(Event.BATCH_FAILED);
        case COMPLETED, CANCELLED, UNKNOWN -> Optional.of(Event.BATCH_ENDED);
        default -> p.waiting() && clock.millis() - p.submittedMillis > settings.pilotPendingLimit().toMillis()
            ? Optional.of(Event.PENDING_TOO_LONG) : Optional.empty();
      };
      if (event.isPresent()) {
        Contain.run(LOG, settings.site(), "pilot " + p.id + " (" + event.get() + ")", () -> apply(p, p.fire(event.get()), s));
      }
    }
  }

  /** Carries out the effects of a pilot's transition. */
  private void apply(Pilot p, List<Effect> effects, PilotStatus s) {
    for (Effect effect : effects) {
      switch (effect) {
        case FORGET -> {
          pilots.forget(p);
          recovery.forget(p.id);
        }
        case CANCEL_BATCH_JOB -> handler.cancel(p.handle());
        case RECORD_PENDING_TOO_LONG -> decisions.record("cancel-pilot", "pilot=" + p.id, "pending-too-long",
            "waited over " + settings.pilotPendingLimit().toSeconds() + " s in the local queue");
        case RECORD_DIED_BEFORE_ASKING -> decisions.record("pilot-failed", "pilot=" + p.id, "died-before-asking", "the pilot job ended "
            + s.detail() + " without asking for work; check that pilots.command runs on the nodes (its output: pilots.output in the site"
            + " file; none is kept without it)");
        case RELEASE_CLAIM, RELEASE_NEVER_CONFIRMED, RELEASE_EVICTED -> release(p, s, effect);
      }
    }
  }

  private void release(Pilot p, PilotStatus s, Effect why) {
    Claim c = p.claim();
    if (c == null) {
      return; // asked, but no claim was handed to it
    }
    // the batch system's own words too: Slurm's PREEMPTED tells its preemption from a cancel
    String ended = "pilot " + p.id + " ended (" + (s == null ? "unknown" : s.state() + (s.detail().isEmpty() ? "" : ": " + s.detail())) + ")";
    if (why == Effect.RELEASE_EVICTED) {
      decisions.record("release", job(c.ref()), "evicted", ended + ": its run was evicted for local users; the job goes back to the queue,"
          + " and the run credits nothing");
    } else if (why == Effect.RELEASE_CLAIM) {
      decisions.record("release", job(c.ref()), "pilot-ended", ended + " without reporting; the job goes back to the queue");
    } else {
      // the claim was made for it, but the answer never reached it (this daemon stopped, or the link broke): no run began
      decisions.record("release", job(c.ref()), "never-confirmed", ended + " without a call for the job it was handed, so it never"
          + " got it; no run began, and the job goes back to the queue");
    }
    try {
      coordination.release(c);
    } catch (CoordinationException e) {
      LOG.info("claim of {} already gone: {}", c.ref(), e.getMessage());
    }
  }

  /** Gives cores back to local users waiting for them ({@link Eviction}). */
  public void evictionRound(QueueObservation obs) {
    eviction.round(obs);
  }

  /**
   * Submits pilots for foreign jobs while the site is under its exposure threshold and has cores
   * and receive allowance. The ratio counts the pilots on their way (those that have not asked for
   * work yet: a pilot whose batch job has just started counts twice for a moment, as the batch
   * system's allocation may lag behind its start): each pilot is submitted only while the ratio
   * before it is under the threshold, the rule a pilot that has run a job meets to take another
   * ({@link LateBinding#heldBack}). Counting only what ran, a round sent pilots up to every free
   * core, and each pilot past the threshold was sent away after its first job or two.
   */
  public void submitRound(QueueObservation obs) {
    binding.observed(obs);
    if (!draining) {
      soldSlots.round();
    }
    if (draining || obs.reservationRatio() >= settings.exposureThreshold()) {
      return;
    }
    List<Pilot> waiting = pilots.waiting();
    int reserved = obs.allocatedCores() + waiting.stream().mapToInt(p -> p.cores).sum();
    Set<JobRef> targeted = new HashSet<>();
    waiting.forEach(p -> targeted.add(p.target));
    double room = budget.receiveLeft(Pilots.reserved(waiting));
    List<JobSpec> fitting = coordination.queue().stream().filter(j -> !j.home().equals(settings.site()) && !targeted.contains(j.ref())
        && settings.accountFor(j).isPresent() && j.cores() <= obs.totalCores() && settings.spreads(j) && settings.takesInputsOf(j)
        && handler.canHold(j.cores(), Pilots.memoryFor(j), j.layout())).toList();
    int pending = waiting.size();
    // pilots waiting for work take what fits them as soon as it is queued: no pilot is submitted for that
    List<Pilot> asking = new ArrayList<>(pilots.asking());
    long now = clock.millis();
    refusedUntil.values().removeIf(until -> until <= now);
    for (Candidates order = Candidates.of(fitting, coordination, settings.utility()); order.hasNext() && pending < settings.maxPendingPilots()
        && (double) reserved / obs.totalCores() < settings.exposureThreshold(); ) {
      Candidates.Pick pick = order.next();
      JobSpec j = pick.job();
      double cs = PeriodBudget.coreSeconds(j.cores(), j.walltimeSeconds());
      if (j.cores() > obs.totalCores() - reserved || room <= 0) {
        continue; // jobs are not divisible: the last one may go past the allowance, by less than one job
      }
      if (refusedUntil.getOrDefault(j.ref(), 0L) > clock.millis() || binding.takenByAsking(asking, j)) {
        continue; // the batch system refused a pilot for it a moment ago, or a pilot asking now takes it: the others are tried
      }
      Optional<Pilot> pilot;
      try {
        pilot = submit(j, settings.reuse().extraTime().toSeconds(), "");
      } catch (HandlerException e) {
        LOG.warn("site {}: the batch system did not take pilots this round ({}); retrying next round", settings.site(), e.getMessage());
        break;
      }
      if (pilot.isEmpty()) {
        refusedUntil.put(j.ref(), clock.millis() + REFUSED_HOLD_MILLIS);
        continue;
      }
      decisions.record("pilot", "pilot=" + pilot.get().id + " for=" + j.ref(), "free-capacity", String.format(
          "ratio with the pilots on their way %.2f < %.2f, %d cores free, %s core-seconds of receive allowance left; %s; runs as %s",
          (double) reserved / obs.totalCores(), settings.exposureThreshold(), obs.totalCores() - reserved, Numbers.format(room), pick.reason(),
          pilot.get().account));
      reserved += j.cores();
      room -= cs;
      pending++;
    }
  }

  /**
   * Submits a pilot shaped like {@code j}; empty (and recorded) when the batch system refuses this
   * pilot (its shape, its account), or throws when the batch system takes none now (unavailable).
   */
  Optional<Pilot> submit(JobSpec j, long extraSeconds, String reservation) {
    String account = settings.accountFor(j).orElseThrow();
    Pilots.Issued issued = pilots.create(account, j, extraSeconds, clock.millis(), reservation);
    Pilot p = issued.pilot();
    try {
      p.submitted(handler.submit(new PilotSpec("coalition-pilot-" + p.id, account, j.cores(), Pilots.memoryFor(j),
          p.walltime + PilotMargin.SECONDS, settings.pilotPartition(), settings.pilotCommand(), PilotAgent.environment(p.id, issued.token(),
              settings), "/tmp", false, j.layout(), settings.pilotOutputFile(p.id)).inReservation(reservation)));
    } catch (HandlerException | IllegalArgumentException e) {
      apply(p, p.fire(Event.SUBMIT_FAILED), null);
      if (e instanceof HandlerException h && h.category() == HandlerException.Category.UNAVAILABLE) {
        throw h;
      }
      decisions.record("no-pilot", job(j.ref()), "submit-failed", e.getMessage() + "; not tried again for "
          + REFUSED_HOLD_MILLIS / 60_000 + " min");
      return Optional.empty();
    }
    recovery.keep(p);
    return Optional.of(p);
  }

  // --- the pilot protocol --------------------------------------------------------------------

  @Override
  public Optional<Assignment> work(String pilotId, String token) {
    Pilot p = pilots.check(pilotId, token);
    if (!coordination.connected()) {
      // cut from ZooKeeper: no claim can be made now, and trying each job would hold the pilot for minutes; it exits, its batch job ends
      throw new CoordinationException(CoordinationException.Kind.UNAVAILABLE, "this daemon is not connected to ZooKeeper; no work now");
    }
    p.asks(clock.millis());
    if (draining || stopping) {
      p.fire(Event.NO_WORK);
      decisions.record("idle-pilot", "pilot=" + p.id, stopping ? "stopping" : "draining", stopping
          ? "this daemon is stopping: a job handed out now might never reach the pilot" : "this site is draining: it takes no foreign work");
      return Optional.empty();
    }
    return binding.work(p, () -> !draining && !stopping);
  }

  @Override
  public boolean heartbeat(String pilotId, String token) {
    Pilot p = pilots.check(pilotId, token);
    Claim c = p.claim();
    if (c == null) {
      throw new PilotRefused("pilot " + pilotId + " has no job to heartbeat for");
    }
    if (p.phase() == PilotLifecycle.Phase.EVICTING) {
      return false; // its batch job is being cancelled: the run stops now, whatever the signal reached
    }
    recovery.requireAdopted(p);
    if (p.confirm()) { // its first call with the token it got with the job: it has the job
      recovery.keep(p);
    }
    try {
      coordination.heartbeat(c);
      return true;
    } catch (CoordinationException e) {
      if (e.kind() == CoordinationException.Kind.STALE) {
        decisions.record("kill-run", job(c.ref()) + " pilot=" + pilotId, "claim-lost", e.getMessage());
        return false;
      }
      throw e;
    }
  }

  @Override
  public void authenticate(String pilotId, String token) {
    pilots.check(pilotId, token);
  }

  @Override
  public void finish(String pilotId, String token, RunOutcome outcome) {
    Pilot p = pilots.check(pilotId, token);
    synchronized (p) { // two reports of one run at once store its output once
      reports.report(p, outcome);
    }
  }

  @Override
  public void inputs(String pilotId, String token, Path target) {
    files.inputs(pilots.check(pilotId, token).claimed(), target);
  }

  @Override
  public void files(String pilotId, String token, Path tar, String sha256) {
    Pilot p = pilots.check(pilotId, token);
    p.claimed();
    files.files(p.id, tar, sha256);
  }

  /**
   * Cancels the pilots that have not asked for work yet (a clean stop): none of them runs a job,
   * and a daemon stopped for good would leave them to start and find no one to ask. Running
   * pilots are left alone; a restarted daemon adopts them from the journal.
   */
  public void cancelPendingPilots() {
    for (Pilot p : pilots.all()) {
      if (p.waiting() && p.handle() != null) {
        try {
          handler.cancel(p.handle());
        } catch (HandlerException e) {
          LOG.info("cannot cancel pilot {}: {}", p.id, e.getMessage());
        }
      }
    }
  }

  /**
   * A clean stop begins: a pilot that asks gets no work from now on. The stop could cut off the
   * answer, which would leave a claim behind that its pilot never got.
   */
  public void stopHandingOutWork() {
    stopping = true;
    binding.wakeAll();
  }

  /** Takes no more foreign work: no pilot is submitted, and a pilot that asks gets none. Running ones go on. */
  public void drain() {
    draining = true;
    binding.wakeAll();
  }

  public boolean draining() {
    return draining;
  }

  private static String job(JobRef ref) {
    return "job=" + ref;
  }
}
