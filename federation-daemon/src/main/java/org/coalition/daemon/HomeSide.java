package org.coalition.daemon;

import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.coalition.coordination.Completed;
import org.coalition.coordination.Coordination;
import org.coalition.coordination.CoordinationException;
import org.coalition.coordination.FederatedJob;
import org.coalition.coordination.JobSpec;
import org.coalition.coordination.RunResult;
import org.coalition.daemon.PublishedJobLifecycle.Effect;
import org.coalition.daemon.PublishedJobLifecycle.Event;
import org.coalition.daemon.PublishedJobLifecycle.Phase;
import org.coalition.handler.HandlerException;
import org.coalition.handler.HomeJob;
import org.coalition.handler.HomeQueue;
import org.coalition.handler.QueueObservation;
import org.coalition.handler.RemoteRun;
import org.coalition.policy.text.Numbers;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The home side of a site (events 1 and 4 of DESIGN.md): an opted-in local job stays home while
 * there is room; once it has waited {@code publishAfter} with no room it is parked and published,
 * as far as the period's send allowance goes; a published job still unclaimed when room appears
 * here is withdrawn and runs at home; a run that comes back is replayed in the user's parked job.
 * Each job moves through {@link PublishedJobLifecycle}. Touched only by the broker's tick.
 */
final class HomeSide {
  private static final Logger LOG = LoggerFactory.getLogger(HomeSide.class);
  private static final int HISTORY = 10_000;
  /** How long the results of an executor whose daemon did not answer wait before the next fetch. */
  private static final long UNREACHABLE_BACKOFF_MILLIS = 15_000;

  private final BrokerSettings settings;
  private final Coordination coordination;
  private final Optional<HomeQueue> home;
  private final Decisions decisions;
  private final PeriodBudget budget;
  private final Clock clock;
  private final OutputFetch fetch;
  private final BrokerMetrics metrics;
  private final ParkJournal parks;
  private final UserNotes notes;

  private final Map<String, Long> firstSeenMillis = new HashMap<>();
  private final Map<String, JobSpec> published = new HashMap<>();
  /**
   * Published jobs the federation's cache has shown since: only such a job can have left it. The
   * cache follows ZooKeeper a moment behind, and a job published a round ago may not be in it
   * yet; taken for gone, it was released to run here while it could run elsewhere too.
   */
  private final Set<String> seenInFederation = new HashSet<>();
  private final Set<String> keptLogged = new HashSet<>();
  /** Executors whose daemon did not answer an output fetch, and until when (clock millis) their results wait. */
  private final Map<String, Long> unreachableUntil = new HashMap<>();
  private final Map<String, Broker.Finished> history = new LinkedHashMap<>(16, 0.75f, false) {
    private static final long serialVersionUID = 1L;

    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Broker.Finished> eldest) {
      return size() > HISTORY;
    }
  };

  HomeSide(BrokerSettings settings, Coordination coordination, Optional<HomeQueue> home, Decisions decisions, PeriodBudget budget,
      Clock clock, OutputFetch fetch, BrokerMetrics metrics, ParkJournal parks) {
    this.settings = settings;
    this.coordination = coordination;
    this.home = home;
    this.decisions = decisions;
    this.budget = budget;
    this.clock = clock;
    this.fetch = fetch;
    this.metrics = metrics;
    this.parks = parks;
    this.notes = new UserNotes(settings.site(), clock);
  }

  /** How many of this site's jobs are published now. */
  int publishedCount() {
    return published.size();
  }

  synchronized Optional<Broker.Finished> finished(String jobId) {
    return Optional.ofNullable(history.get(jobId));
  }

  /**
   * After a (re)start: this site's jobs still in the federation are tracked again, and a job
   * parked here but not published (a crash between the two) is released to run at home.
   */
  void recover() {
    for (FederatedJob f : coordination.jobs(settings.site())) {
      fire(f.job().jobId(), Event.FOUND_PUBLISHED, f.job());
      seenInFederation.add(f.job().jobId());
    }
    if (home.isPresent()) {
      List<HomeJob> jobs = home.get().federable();
      parks.retain(jobs, true); // a crash between a park's record and its hold, or between a release and the record's end
      for (HomeJob j : jobs) {
        if (parks.parked(j) && !published.containsKey(j.id())) {
          fire(j.id(), Event.FOUND_PARKED, null);
          decisions.record("unpark", job(j.id()), "parked-not-published", "found parked at start but not in the federation; it runs at home");
        }
      }
    }
  }

  private Phase phase(String jobId) {
    return published.containsKey(jobId) ? Phase.PUBLISHED : Phase.LOCAL;
  }

  /** Moves job {@code jobId} on {@code event} and carries out the effects; {@code spec} is what TRACK remembers. */
  private void fire(String jobId, Event event, JobSpec spec) {
    Transition<Phase, Effect> t = PublishedJobLifecycle.on(phase(jobId), event).orElseThrow(() -> new IllegalStateException(
        "job " + jobId + " is " + phase(jobId) + ": " + event + " is out of order"));
    for (Effect effect : t.effects()) {
      switch (effect) {
        case UNPARK -> {
          home.orElseThrow().unpark(jobId);
          forgetPark(jobId);
        }
        case TRACK -> published.put(jobId, spec);
        case FORGET -> {
          published.remove(jobId);
          seenInFederation.remove(jobId);
          notes.forget(jobId);
        }
        case REMEMBER_RESULT -> { } // the caller knows how it ended: see results()
      }
    }
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
  void round(QueueObservation obs) {
    if (home.isEmpty()) {
      return;
    }
    HomeQueue h = home.get();
    List<HomeJob> jobs = h.federable();
    Map<String, HomeJob> waiting = new HashMap<>();
    jobs.forEach(j -> waiting.put(j.id(), j));
    Map<String, FederatedJob> inFederation = new HashMap<>();
    coordination.jobs(settings.site()).forEach(f -> inFederation.put(f.job().jobId(), f));
    firstSeenMillis.keySet().retainAll(waiting.keySet());
    parks.retain(jobs, false); // parked jobs that ended or were cancelled
    keptLogged.retainAll(waiting.keySet());

    // published jobs gone from the local queue: cancelled by their user (or replayed already)
    for (String id : new ArrayList<>(published.keySet())) {
      FederatedJob f = inFederation.get(id);
      if (f == null) {
        if (seenInFederation.contains(id)) {
          fire(id, Event.LEFT_FEDERATION, null);
        } // else published a moment ago, and the federation's cache has not shown it yet: it has not left
        continue;
      }
      seenInFederation.add(id);
      if (!f.finished() && waiting.containsKey(id)) {
        notes.seen(h, id, f.executor());
      }
      if (!waiting.containsKey(id) && !f.claimed() && coordination.withdraw(id)) {
        fire(id, Event.WITHDRAWN_GONE, null);
        decisions.record("withdraw", job(id), "gone-at-home", "the user's job left the local queue before any site claimed it");
      }
    }
    Map<String, Integer> free = new HashMap<>(); // by part of the site (one entry unless it has several batch systems)
    List<JobSpec> batch = new ArrayList<>();
    for (HomeJob j : jobs) {
      FederatedJob f = inFederation.get(j.id());
      if (parks.parked(j)) {
        if (f == null && !published.containsKey(j.id())) {
          // parked here but in the federation no more: its withdrawal's release failed (the batch system was down)
          fire(j.id(), Event.FOUND_PARKED, null);
          decisions.record("unpark", job(j.id()), "parked-not-published", "parked here but no longer in the federation; it runs at home");
          continue;
        }
        HomeQueue.Room room = h.room(j.id(), obs);
        int there = free.computeIfAbsent(room.system(), k -> room.freeCores());
        if (f != null && !f.claimed() && !f.finished() && j.cpus() <= there && coordination.withdraw(j.id())) {
          fire(j.id(), Event.WITHDRAWN_FOR_ROOM, null);
          free.put(room.system(), there - j.cpus());
          decisions.record("withdraw", job(j.id()), "local-room", j.cpus() + " cores free here before any site claimed it; it runs at home");
        }
        continue;
      }
      if (f != null) {
        continue; // published, parking it failed last round: the next round sees it parked or it ran
      }
      if (j.held()) {
        firstSeenMillis.remove(j.id());
        continue; // held by an administrator, not by this daemon: it stays as it is, and is not published
      }
      if (!j.ready()) {
        firstSeenMillis.remove(j.id());
        continue; // waits for a dependency, a begin time or a hold, or replays a run: it must not run anywhere (again)
      }
      long seen = firstSeenMillis.computeIfAbsent(j.id(), k -> clock.millis());
      HomeQueue.Room room = h.room(j.id(), obs);
      if (clock.millis() - seen < settings.publishAfter().toMillis() || j.cpus() <= free.computeIfAbsent(room.system(), k -> room.freeCores())) {
        continue; // local room may still come, or is here: the local scheduler starts it
      }
      if (!budget.trySend(PeriodBudget.coreSeconds(j.cpus(), j.timeLimitSeconds()))) {
        if (keptLogged.add(j.id())) {
          decisions.record("keep", job(j.id()), "send-allowance", String.format(
              "this period's send allowance is used up (%s of %s core-seconds sent)", Numbers.format(budget.sent()),
              Numbers.format(budget.sendAllowance())));
        }
        continue;
      }
      long limit = j.timeLimitSeconds() > 0 ? j.timeLimitSeconds() : PeriodBudget.NO_LIMIT_SECONDS;
      try {
        batch.add(new JobSpec(j.id(), settings.site(), j.cpus(), j.memoryMb(), limit, coordination.now(), h.payload(j.id())));
      } catch (IllegalArgumentException | HandlerException e) {
        decisions.record("keep", job(j.id()), "not-publishable", e.getMessage());
        keptLogged.add(j.id());
      }
      if (batch.size() == Coordination.MAX_PUBLISH_BATCH) {
        publish(h, batch, obs);
        batch.clear();
      }
    }
    if (!batch.isEmpty()) {
      publish(h, batch, obs);
    }
  }

  /** Parks, then publishes: a job is never claimable while it can also start here. */
  private void publish(HomeQueue h, List<JobSpec> batch, QueueObservation obs) {
    List<JobSpec> parked = new ArrayList<>();
    for (JobSpec j : batch) {
      try {
        parks.parking(j.jobId());
      } catch (RuntimeException e) {
        decisions.record("keep", job(j.jobId()), "park-not-recorded", e.getMessage());
        continue;
      }
      try {
        h.park(j.jobId());
        parked.add(j);
      } catch (HandlerException e) {
        forgetPark(j.jobId());
        decisions.record("keep", job(j.jobId()), "park-failed", e.getMessage());
      }
    }
    if (parked.isEmpty()) {
      return;
    }
    try {
      coordination.publish(parked);
    } catch (CoordinationException e) {
      for (JobSpec j : parked) {
        fire(j.jobId(), Event.PUBLISH_FAILED, null);
        decisions.record("keep", job(j.jobId()), "publish-failed", e.getMessage());
      }
      return;
    }
    long now = clock.millis();
    for (JobSpec j : parked) {
      fire(j.jobId(), Event.PUBLISHED, j);
      notes.queued(h, j.jobId());
      decisions.record("publish", job(j.jobId()), "no-local-room", String.format(
          "needs %d cores, %d of %d free, waited %s s", j.cores(), obs.totalCores() - obs.allocatedCores(), obs.totalCores(),
          Numbers.format((now - firstSeenMillis.getOrDefault(j.jobId(), now)) / 1e3)));
    }
  }

  /**
   * Event 4 at home: runs that ended elsewhere are checked ({@link ResultCheck}), replayed in the
   * users' parked jobs, then acknowledged. Each result is handled on its own: one that fails the
   * checks is rejected (its job queued again), one that fails otherwise is logged and retried next
   * round, and neither keeps the others from being handled.
   */
  void results() {
    List<Completed> results = coordination.results();
    if (results.isEmpty()) {
      return;
    }
    Map<String, String> endpoints = new HashMap<>();
    coordination.knownSites().forEach((site, info) -> endpoints.put(site, info.endpoint()));
    List<Completed> done = new ArrayList<>();
    for (Completed c : results) {
      Contain.run(LOG, settings.site(), "the result of " + job(c.job().jobId()) + " from " + c.executor(), () -> {
        if (handle(c, endpoints.getOrDefault(c.executor(), ""))) {
          done.add(c);
        }
      });
    }
    if (done.isEmpty()) {
      return;
    }
    if (!Contain.run(LOG, settings.site(), "acknowledging " + done.size() + " result(s)", () -> coordination.acknowledge(done))) {
      // one at a time, so that a result that cannot be folded holds back no other
      done.removeIf(c -> !Contain.run(LOG, settings.site(), "acknowledging " + job(c.job().jobId()), () -> coordination.acknowledge(List.of(c))));
    }
    done.forEach(c -> fire(c.job().jobId(), Event.RESULT_HANDLED, null));
  }

  /** Checks, fetches and replays one result; true when it is to be acknowledged. */
  private boolean handle(Completed c, String executorEndpoint) {
    String id = c.job().jobId();
    Optional<ResultCheck.Refusal> refusal = ResultCheck.check(c);
    if (refusal.isPresent()) {
      reject(c, refusal.get());
      return false;
    }
    long now = clock.millis();
    if (unreachableUntil.getOrDefault(c.executor(), 0L) > now) {
      return false; // its daemon did not answer a moment ago: its results wait, unacknowledged
    }
    RunResult r = c.result();
    RemoteRun run;
    try {
      RunOutputs.Captured out = fetch.fetch(r.output(), executorEndpoint, c.executor());
      run = RemoteRuns.of(r, out.stdout(), out.stderr());
      unreachableUntil.remove(c.executor());
    } catch (OutputFetch.Refused e) {
      reject(c, new ResultCheck.Refusal("output", e.getMessage()));
      return false;
    } catch (RunOutputs.Unreachable e) {
      if (retained(r)) {
        // The executor keeps the output for a day: a broken link or a restarting daemon loses nothing.
        unreachableUntil.put(c.executor(), now + UNREACHABLE_BACKOFF_MILLIS);
        LOG.warn("site {}: the output of {} at {} cannot be fetched now ({}); retrying in {} s", settings.site(), id, c.executor(),
            e.getMessage(), UNREACHABLE_BACKOFF_MILLIS / 1000);
        return false;
      }
      run = RemoteRuns.withoutOutput(r, "coalition: the output of the run at " + c.executor() + " could not be fetched for "
          + RunOutputs.RETENTION.toHours() + " h: " + e.getMessage() + "\n");
    } catch (RuntimeException e) {
      run = RemoteRuns.withoutOutput(r, "coalition: the output of the run at " + c.executor() + " could not be fetched: " + e.getMessage()
          + "\n");
    }
    String outcome;
    try {
      if (home.isEmpty()) {
        throw new HandlerException(HandlerException.Category.REJECTED, "this site has no home queue");
      }
      notes.ran(home.get(), id, c.executor(), r.end() - r.start());
      home.get().replay(id, run);
      forgetPark(id);
      outcome = "replayed";
      decisions.record("replay", job(id), "finished-remotely", String.format("ran at %s, %s, waited %s s, ran %s s",
          c.executor(), run.statusLine().trim(), Numbers.format(r.start() - c.job().release()), Numbers.format(r.end() - r.start())));
    } catch (HandlerException e) {
      boolean retained = retained(r);
      if (e.category() == HandlerException.Category.UNAVAILABLE && retained) {
        // the batch system or the disk the result goes to is down for a while: the result waits, unacknowledged
        LOG.warn("site {}: cannot replay {} now ({}); retrying next round", settings.site(), id, e.getMessage());
        return false;
      }
      outcome = "dropped";
      decisions.record("drop-result", job(id), retained ? "home-job-gone" : "replay-failed-for-a-day", e.getMessage());
    }
    synchronized (this) {
      history.put(id, new Broker.Finished(id, c.executor(), c.job().release(), r.start(), r.end(), r.exitCode(), r.signal(), r.timedOut(), outcome));
    }
    return true;
  }

  /** Whether the executor still keeps the run's output (a day after its end): until then a failure to fetch or replay is retried. */
  private boolean retained(RunResult r) {
    return coordination.now() - r.end() < RunOutputs.RETENTION.toSeconds();
  }

  /** A result that failed the checks: never folded, never replayed; its job goes back to the queue. */
  private void reject(Completed c, ResultCheck.Refusal refusal) {
    if (coordination.reject(c, refusal.reason())) {
      metrics.rejected(c.executor(), refusal.code());
      decisions.record("reject-result", job(c.job().jobId()) + " executor=" + c.executor(), refusal.code(),
          refusal.reason() + "; the job is queued again");
    }
  }

  private String job(String localId) {
    return "job=" + settings.site() + "/" + localId;
  }
}
