package org.coalition.daemon.home;

import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;
import org.coalition.coordination.Coordination;
import org.coalition.coordination.CoordinationException;
import org.coalition.coordination.FederatedJob;
import org.coalition.coordination.Inputs;
import org.coalition.coordination.JobSpec;
import org.coalition.daemon.base.BoughtSlots;
import org.coalition.daemon.base.BoundedParallel;
import org.coalition.daemon.base.BrokerMetrics;
import org.coalition.daemon.base.BrokerSettings;
import org.coalition.daemon.base.Decisions;
import org.coalition.daemon.base.PeriodBudget;
import org.coalition.daemon.home.PublishedJobLifecycle.Effect;
import org.coalition.daemon.home.PublishedJobLifecycle.Event;
import org.coalition.daemon.home.PublishedJobLifecycle.Phase;
import org.coalition.daemon.outputs.OutputFetch;
import org.coalition.handler.HandlerException;
import org.coalition.handler.HomeJob;
import org.coalition.handler.HomeQueue;
import org.coalition.handler.QueueObservation;
import org.coalition.policy.text.Numbers;
import org.coalition.staging.InputPacker;
import org.coalition.staging.StagingRefused;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The home side of a site (events 1 and 4 of DESIGN.md): an opted-in local job stays home while there is room; once it has
 * waited {@code publishAfter} with no room it is parked and published, as far as the period's send allowance or a block bought
 * goes ({@link SendGate}); a published job still unclaimed when room appears here is withdrawn and runs at home; a run that
 * comes back is replayed in the user's parked job. Each job moves through {@link PublishedJobLifecycle}. Touched by the tick.
 */
public final class HomeSide {
  private static final Logger LOG = LoggerFactory.getLogger(HomeSide.class);

  private final BrokerSettings settings;
  private final Coordination coordination;
  private final Optional<HomeQueue> home;
  private final Decisions decisions;
  private final Clock clock;
  private final OutputFetch fetch;
  private final BrokerMetrics metrics;
  private final ParkJournal parks;
  private final UserNotes notes;
  private final HomeFiles files;
  private final HomeResults replays;
  /** The home queue's calls about different jobs made at once ({@link HomeQueue#concurrentCalls}): notes, payloads, replays. */
  private final BoundedParallel parallel;

  /** The jobs this side follows, each where it is in its lifecycle: the only state it keeps of them. */
  private final PublishedJobs jobs = new PublishedJobs();
  private final SendGate sendGate;

  public HomeSide(BrokerSettings settings, Coordination coordination, Optional<HomeQueue> home, Decisions decisions, PeriodBudget budget,
      Clock clock, OutputFetch fetch, BrokerMetrics metrics, ParkJournal parks, InputPacker packer) {
    this.settings = settings;
    this.coordination = coordination;
    this.home = home;
    this.decisions = decisions;
    this.sendGate = new SendGate(budget, new BoughtSlots(), decisions, clock);
    this.clock = clock;
    this.fetch = fetch;
    this.metrics = metrics;
    this.parks = parks;
    this.notes = new UserNotes(settings.site(), clock);
    this.files = new HomeFiles(settings.site(), packer, decisions, notes);
    this.parallel = new BoundedParallel("home-" + settings.site(), home.map(HomeQueue::concurrentCalls).orElse(1));
    this.replays = new HomeResults(settings, coordination, home, decisions, clock, fetch, metrics, notes, parallel, sendGate.bought(),
        this::forgetPark);
  }

  /** The slots this site bought that are open now: the market desk sets them, this side publishes into them. */
  public BoughtSlots bought() {
    return sendGate.bought();
  }

  public Optional<String> whyHome(String jobId) {
    return jobs.whyHome(jobId);
  }

  /** The inputs of this site's job {@code jobId} for {@code site} ({@code anySite}: for whoever): only while that site holds its claim. */
  public Optional<Path> inputsFor(String jobId, String site, boolean anySite) {
    return coordination.jobs(settings.site()).stream().anyMatch(f -> f.job().jobId().equals(jobId) && f.claimed() && !f.finished()
        && (anySite || site.equals(f.executor()))) ? files.inputs(jobId) : Optional.empty();
  }

  /** Who owns this site's job {@code jobId}, as its batch system says; empty when it does not know or cannot be asked now. */
  public Optional<String> owner(String jobId) {
    try {
      return home.flatMap(h -> h.owner(jobId));
    } catch (HandlerException e) {
      return Optional.empty();
    }
  }

  /** How many of this site's jobs are published now. */
  public int publishedCount() {
    return jobs.published().size();
  }

  public Optional<FinishedJob> finished(String jobId) {
    return replays.finished(jobId);
  }

  /** After a (re)start: this site's jobs in the federation are followed again; one parked, not published (a crash between) runs home. */
  public void recover() {
    for (FederatedJob f : coordination.jobs(settings.site())) {
      fire(f.job().jobId(), Event.FOUND_PUBLISHED, j -> j.withSpec(f.job()));
    }
    if (home.isPresent()) {
      List<HomeJob> queued = home.get().federable();
      parks.retain(queued, true); // a crash between a park's record and its hold, or between a release and the record's end
      for (HomeJob j : queued) {
        if (parks.parked(j) && !PublishedJobLifecycle.published(jobs.phase(j.id()))) {
          fire(j.id(), Event.FOUND_PARKED);
          decisions.record("unpark", job(j.id()), "parked-not-published", "found parked at start but not in the federation; it runs at home");
        }
      }
    }
  }

  /** Moves job {@code jobId} on {@code event}, {@code change} filling in what the event brings, and carries out the effects. */
  private void fire(String jobId, Event event, UnaryOperator<PublishedJob> change) {
    for (Effect effect : jobs.fire(jobId, event, change)) {
      switch (effect) {
        case PARK -> park(jobId);
        case FORGET_PARK -> forgetPark(jobId);
        case UNPARK -> {
          home.orElseThrow().unpark(jobId);
          forgetPark(jobId);
        }
        case FORGET -> notes.forget(jobId);
        case REMEMBER_RESULT -> { } // the caller knows how it ended: see results()
      }
    }
  }

  /** The effect PARK: the park recorded, then the job held (a crash between leaves a record with no hold, never a hold with no record). */
  private void park(String jobId) {
    try {
      parks.parking(jobId);
    } catch (RuntimeException e) {
      throw new ParkFailed("park-not-recorded", e.getMessage());
    }
    try {
      home.orElseThrow().park(jobId);
    } catch (HandlerException e) {
      throw new ParkFailed("park-failed", e.getMessage());
    }
  }

  /** A park that could not be made: {@code code} says which step failed, for the decision log. */
  private static final class ParkFailed extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final String code;

    ParkFailed(String code, String message) {
      super(message, null, false, false);
      this.code = code;
    }
  }

  private void fire(String jobId, Event event) {
    fire(jobId, event, UnaryOperator.identity());
  }

  /**
   * Forgets the park of a job released (or never held): a record that cannot be deleted now is
   * harmless (the job is no longer held; the next start forgets it), so it is only logged.
   */
  private void forgetPark(String jobId) {
    try {
      parks.released(jobId);
    } catch (RuntimeException e) {
      LOG.warn("site {}: {}; the next start forgets it", settings.site(), e.getMessage());
    }
  }

  /** Event 1: publishes what has no room here, withdraws what found room. */
  public void round(QueueObservation obs) {
    if (home.isEmpty()) {
      return;
    }
    HomeQueue h = home.get();
    List<HomeJob> queued = h.federable();
    Map<String, HomeJob> waiting = new HashMap<>();
    queued.forEach(j -> waiting.put(j.id(), j));
    Map<String, FederatedJob> inFederation = new HashMap<>();
    coordination.jobs(settings.site()).forEach(f -> inFederation.put(f.job().jobId(), f));
    for (PublishedJob j : jobs.all()) {
      if (!waiting.containsKey(j.id()) && !PublishedJobLifecycle.published(j.phase())) {
        fire(j.id(), Event.NOT_READY); // left the local queue before it was published: ended, or cancelled
      }
    }
    parks.retain(queued, false); // parked jobs that ended or were cancelled

    // published jobs gone from the local queue: cancelled by their user (or replayed already)
    Map<String, String> where = new HashMap<>(); // published jobs waiting here, and who runs each (empty: queued)
    for (PublishedJob p : jobs.published()) {
      String id = p.id();
      FederatedJob f = inFederation.get(id);
      if (f == null) {
        // only a job the cache has shown can have left it: the cache follows ZooKeeper a moment behind, and a job published a
        // round ago may not be in it yet (taken for gone, it was released to run here while it could run elsewhere too)
        if (p.phase() == Phase.IN_FEDERATION) {
          fire(id, Event.LEFT_FEDERATION);
        }
        continue;
      }
      fire(id, Event.SEEN);
      if (!f.finished() && waiting.containsKey(id)) {
        where.put(id, f.executor());
      }
      if (!waiting.containsKey(id) && !f.claimed() && coordination.withdraw(id)) {
        fire(id, Event.WITHDRAWN_GONE);
        decisions.record("withdraw", job(id), "gone-at-home", "the user's job left the local queue before any site claimed it");
      }
    }
    parallel.forEach(where.entrySet(), e -> notes.seen(h, e.getKey(), e.getValue()));
    Map<String, Integer> free = new HashMap<>(); // by part of the site (one entry unless it has several batch systems)
    List<HomeJob> going = new ArrayList<>();
    SendGate.Round gate = sendGate.round(inFederation.values());
    for (HomeJob j : queued) {
      FederatedJob f = inFederation.get(j.id());
      Phase phase = jobs.phase(j.id());
      if (parks.parked(j)) {
        if (f == null && !PublishedJobLifecycle.published(phase)) {
          // parked here but in the federation no more: its withdrawal's release failed (the batch system was down)
          fire(j.id(), Event.FOUND_PARKED);
          decisions.record("unpark", job(j.id()), "parked-not-published", "parked here but no longer in the federation; it runs at home");
          continue;
        }
        HomeQueue.Room room = h.room(j, obs);
        int there = free.computeIfAbsent(room.system(), k -> room.freeCores());
        if (f != null && !f.claimed() && !f.finished() && j.cpus() <= there && room.shapeFree() && coordination.withdraw(j.id())) {
          fire(j.id(), Event.WITHDRAWN_FOR_ROOM);
          free.put(room.system(), there - j.cpus());
          decisions.record("withdraw", job(j.id()), "local-room", j.cpus() + " cores free here before any site claimed it; it runs at home");
        }
        continue;
      }
      if (f != null) {
        continue; // published, parking it failed last round: the next round sees it parked or it ran
      }
      if (j.held() || !j.ready()) {
        // held by an administrator, not by this daemon: it stays as it is, and is not published; or it waits for a dependency,
        // a begin time or a hold, or replays a run: it must not run anywhere (again)
        if (phase == Phase.WAITING || phase == Phase.HELD_BACK) {
          fire(j.id(), Event.NOT_READY);
        }
        continue;
      }
      if (phase == Phase.KEPT) {
        continue; // its files or its shape cannot go: its user was told why, and it runs here
      }
      if (phase == Phase.LOCAL) {
        long now = clock.millis();
        fire(j.id(), Event.READY, p -> p.seenAt(now));
      }
      long seen = jobs.get(j.id()).firstSeenMillis();
      HomeQueue.Room room = h.room(j, obs);
      if (clock.millis() - seen < settings.publishAfter().toMillis()
          || (room.shapeFree() && j.cpus() <= free.computeIfAbsent(room.system(), k -> room.freeCores()))) {
        continue; // local room may still come, or is here (cores, and its GPUs or nodes): the local scheduler starts it
      }
      if (!j.staysHome().isEmpty()) {
        keep(h, j, "shape", j.staysHome()); // it would go now, but cannot as it asks
        continue;
      }
      if (!gate.lets(job(j.id()), j.cpus(), j.timeLimitSeconds(), jobs.phase(j.id()) == Phase.WAITING)) {
        fire(j.id(), Event.HELD_BACK);
        continue;
      }
      going.add(j);
    }
    publish(h, going, gate, obs);
    Set<String> live = new HashSet<>(waiting.keySet());
    jobs.published().forEach(p -> live.add(p.id()));
    files.retain(live);
  }

  /** Keeps {@code j} home for good, for {@code reason} ({@code code}: its kind, for the decision log); its user is told. */
  private void keep(HomeQueue h, HomeJob j, String code, String reason) {
    fire(j.id(), Event.CANNOT_GO, p -> p.withReason(reason));
    files.told(h, j, code, reason);
  }

  /** Publishes the jobs that go this round, scripts read at once ({@link HomeQueue#payload}), in batches of {@link Coordination#MAX_PUBLISH_BATCH}. */
  private void publish(HomeQueue h, List<HomeJob> going, SendGate.Round gate, QueueObservation obs) {
    Map<String, String> scripts = new ConcurrentHashMap<>();
    Map<String, String> unreadable = new ConcurrentHashMap<>();
    parallel.forEach(going, j -> {
      try {
        scripts.put(j.id(), h.payload(j.id()));
      } catch (IllegalArgumentException | HandlerException e) {
        unreadable.put(j.id(), String.valueOf(e.getMessage()));
      }
    });
    List<JobSpec> batch = new ArrayList<>();
    for (HomeJob j : going) {
      long limit = j.timeLimitSeconds() > 0 ? j.timeLimitSeconds() : PeriodBudget.NO_LIMIT_SECONDS;
      try {
        String script = scripts.get(j.id());
        if (script == null) {
          throw new HandlerException(HandlerException.Category.REJECTED, unreadable.getOrDefault(j.id(), "its script could not be read"));
        }
        Optional<Inputs> inputs = pack(h, j, script);
        if (inputs.isPresent()) {
          batch.add(JobSpec.builder(j.id(), settings.site()).cores(j.cpus()).memoryMb(j.memoryMb()).walltimeSeconds(limit).release(coordination.now())
              .payload(script).inputs(inputs.get()).environment(j.environment()).layout(j.layout())
              .owner(settings.identities().ownerOf(j.user(), j.workDir())).build());
        } else {
          gate.notSent(job(j.id()));
        }
      } catch (IllegalArgumentException | HandlerException e) {
        decisions.record("keep", job(j.id()), "not-publishable", e.getMessage());
        gate.notSent(job(j.id()));
        fire(j.id(), Event.HELD_BACK);
      }
      if (batch.size() == Coordination.MAX_PUBLISH_BATCH) {
        parkAndPublish(h, batch, gate, obs);
        batch.clear();
      }
    }
    if (!batch.isEmpty()) {
      parkAndPublish(h, batch, gate, obs);
    }
  }

  /** The inputs {@code script} of {@code j} declares, packed; empty when they cannot go, and the job stays home for good. */
  private Optional<Inputs> pack(HomeQueue h, HomeJob j, String script) {
    try {
      return Optional.of(files.pack(j, script));
    } catch (StagingRefused | UncheckedIOException e) {
      keep(h, j, "inputs", e.getMessage());
      return Optional.empty();
    }
  }

  /** Parks, then publishes: a job is never claimable while it can also start here. */
  private void parkAndPublish(HomeQueue h, List<JobSpec> batch, SendGate.Round gate, QueueObservation obs) {
    List<JobSpec> parked = new ArrayList<>();
    for (JobSpec j : batch) {
      try {
        fire(j.jobId(), Event.PARK);
        parked.add(j);
      } catch (ParkFailed e) {
        fire(j.jobId(), Event.PARK_FAILED);
        gate.notSent(job(j.jobId()));
        decisions.record("keep", job(j.jobId()), e.code, e.getMessage());
      }
    }
    if (parked.isEmpty()) {
      return;
    }
    try {
      coordination.publish(parked);
    } catch (CoordinationException e) {
      for (JobSpec j : parked) {
        fire(j.jobId(), Event.PUBLISH_FAILED);
        gate.notSent(job(j.jobId()));
        decisions.record("keep", job(j.jobId()), "publish-failed", e.getMessage());
      }
      return;
    }
    long now = clock.millis();
    parallel.forEach(parked, j -> notes.queued(h, j.jobId()));
    for (JobSpec j : parked) {
      fire(j.jobId(), Event.PUBLISHED, p -> p.withSpec(j));
      long seen = jobs.get(j.jobId()).firstSeenMillis();
      SendGate.Why why = gate.why(job(j.jobId()));
      decisions.record("publish", job(j.jobId()), why.reason(), String.format("needs %d cores%s, %d of %d free, waited %s s%s", j.cores(),
          j.layout().coresAlone() ? "" : " and " + j.layout(), obs.totalCores() - obs.allocatedCores(), obs.totalCores(),
          Numbers.format((now - (seen < 0 ? now : seen)) / 1e3), why.detail()));
    }
  }

  /** Event 4 at home: results replayed ({@link HomeResults}), their jobs forgotten here. */
  public void results() {
    replays.handle().forEach(id -> fire(id, Event.RESULT_HANDLED));
  }

  private String job(String localId) {
    return "job=" + settings.site() + "/" + localId;
  }
}
