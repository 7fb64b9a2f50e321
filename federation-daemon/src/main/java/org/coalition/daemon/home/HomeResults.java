package org.coalition.daemon.home;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.coalition.coordination.Completed;
import org.coalition.coordination.Coordination;
import org.coalition.coordination.RunResult;
import org.coalition.daemon.base.BoughtSlots;
import org.coalition.daemon.base.BoundedParallel;
import org.coalition.daemon.base.BrokerMetrics;
import org.coalition.daemon.base.BrokerSettings;
import org.coalition.daemon.base.Contain;
import org.coalition.daemon.base.Decisions;
import org.coalition.daemon.outputs.CapturedOutput;
import org.coalition.daemon.outputs.OutputFetch;
import org.coalition.daemon.outputs.OutputFetches;
import org.coalition.daemon.outputs.OutputRefused;
import org.coalition.daemon.outputs.RunOutputs;
import org.coalition.handler.HandlerException;
import org.coalition.handler.HomeQueue;
import org.coalition.handler.RemoteRun;
import org.coalition.policy.text.Numbers;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Event 4 at home: runs of this site's jobs that ended elsewhere, checked ({@link ResultCheck}),
 * their output and files fetched ({@link OutputFetch}), replayed in the users' parked jobs, and
 * kept for lookups ({@link #finished}). Called by the broker's tick; the results of one round are
 * replayed as many at once as the home queue takes ({@link HomeQueue#concurrentCalls}).
 */
final class HomeResults {
  private static final Logger LOG = LoggerFactory.getLogger(HomeResults.class);
  private static final int HISTORY = 10_000;
  /** How long the results of an executor whose daemon did not answer wait before the next fetch. */
  private static final long UNREACHABLE_BACKOFF_MILLIS = 15_000;
  /** How many outputs are fetched at once (each mostly waits on the network). */
  private static final int FETCHES = 8;

  private final BrokerSettings settings;
  private final Coordination coordination;
  private final Optional<HomeQueue> home;
  private final Decisions decisions;
  private final Clock clock;
  private final OutputFetch fetch;
  private final BrokerMetrics metrics;
  private final UserNotes notes;
  private final Consumer<String> released;
  private final BoughtSlots bought;
  private final BoundedParallel parallel;
  /** The outputs being fetched, off the round's thread. */
  private final OutputFetches fetches;
  /** Executors whose daemon did not answer an output fetch, and until when (clock millis) their results wait. */
  private final Map<String, Long> unreachableUntil = new ConcurrentHashMap<>();
  private final Map<String, FinishedJob> history = new LinkedHashMap<>(16, 0.75f, false) {
    private static final long serialVersionUID = 1L;

    @Override
    protected boolean removeEldestEntry(Map.Entry<String, FinishedJob> eldest) {
      return size() > HISTORY;
    }
  };

  /**
   * {@code parallel}: how many results are handled at once; {@code bought}: told of each run taken
   * home (where a seller of a slot bought ran one, {@link BoughtSlots#ran}); {@code released}: told
   * of each job replayed (its park is over).
   */
  HomeResults(BrokerSettings settings, Coordination coordination, Optional<HomeQueue> home, Decisions decisions, Clock clock,
      OutputFetch fetch, BrokerMetrics metrics, UserNotes notes, BoundedParallel parallel, BoughtSlots bought, Consumer<String> released) {
    this.settings = settings;
    this.coordination = coordination;
    this.home = home;
    this.decisions = decisions;
    this.clock = clock;
    this.fetch = fetch;
    this.metrics = metrics;
    this.notes = notes;
    this.released = released;
    this.parallel = parallel;
    this.bought = bought;
    this.fetches = new OutputFetches("fetch-" + settings.site(), FETCHES);
  }

  synchronized Optional<FinishedJob> finished(String jobId) {
    return Optional.ofNullable(history.get(jobId));
  }

  /**
   * Runs that ended elsewhere are checked ({@link ResultCheck}), their outputs fetched off this
   * thread ({@link OutputFetches}: the round waits a moment for the fetches it starts, never for
   * one still running from before), replayed in the users' parked jobs, then acknowledged. Each
   * result is handled on its own: one that fails the checks is rejected (its job queued again),
   * one that fails otherwise is logged and retried next round, and neither keeps the others from
   * being handled.
   */
  List<String> handle() {
    List<Completed> results = coordination.results();
    fetches.retain(results.stream().map(Completed::token).collect(Collectors.toSet()));
    if (results.isEmpty()) {
      return List.of();
    }
    Map<String, String> endpoints = new HashMap<>();
    coordination.knownSites().forEach((site, info) -> endpoints.put(site, info.endpoint()));
    List<Long> started = new ArrayList<>();
    long now = clock.millis();
    for (Completed c : results) {
      Optional<ResultCheck.Refusal> refusal = ResultCheck.check(c);
      if (refusal.isPresent()) {
        Contain.run(LOG, settings.site(), "rejecting the result of " + job(c.job().jobId()), () -> reject(c, refusal.get()));
      } else if (unreachableUntil.getOrDefault(c.executor(), 0L) <= now) {
        // (an executor whose daemon did not answer a moment ago: its results wait, unacknowledged)
        RunResult r = c.result();
        String endpoint = endpoints.getOrDefault(c.executor(), "");
        if (fetches.start(c.token(), c.executor(), () -> fetch.fetch(r, endpoint, c.executor()))) {
          started.add(c.token());
        }
      }
    }
    fetches.awaitStarted(started);
    List<Completed> done = Collections.synchronizedList(new ArrayList<>());
    List<String> replayed = Collections.synchronizedList(new ArrayList<>());
    Map<Long, OutputFetches.Outcome> fetched = new HashMap<>();
    for (Completed c : results) {
      fetches.take(c.token()).ifPresent(o -> fetched.put(c.token(), o));
    }
    List<Completed> ready = results.stream().filter(c -> fetched.containsKey(c.token())).toList();
    parallel.forEach(ready, c -> Contain.run(LOG, settings.site(), "the result of " + job(c.job().jobId()) + " from " + c.executor(), () -> {
      if (handle(c, fetched.get(c.token()), replayed)) {
        done.add(c);
      }
    }));
    replayed.forEach(released); // the home side's books, on this thread
    if (done.isEmpty()) {
      return List.of();
    }
    if (!Contain.run(LOG, settings.site(), "acknowledging " + done.size() + " result(s)", () -> coordination.acknowledge(done))) {
      // one at a time, so that a result that cannot be folded holds back no other
      done.removeIf(c -> !Contain.run(LOG, settings.site(), "acknowledging " + job(c.job().jobId()), () -> coordination.acknowledge(List.of(c))));
    }
    return done.stream().map(c -> c.job().jobId()).toList();
  }

  /**
   * Replays one checked result whose output fetch ended ({@code fetched}), adding its job to
   * {@code replayed} when it was; true when it is to be acknowledged.
   */
  private boolean handle(Completed c, OutputFetches.Outcome fetched, List<String> replayed) {
    String id = c.job().jobId();
    RunResult r = c.result();
    RemoteRun run;
    try {
      CapturedOutput out = fetched.get();
      run = HomeFiles.run(r, out, left(c));
      unreachableUntil.remove(c.executor());
    } catch (OutputRefused e) {
      reject(c, new ResultCheck.Refusal("output", e.getMessage()));
      return false;
    } catch (RunOutputs.Unreachable e) {
      if (retained(r)) {
        // The executor keeps the output for a day: a broken link or a restarting daemon loses nothing. The
        // back-off counts from now, when the fetch has ended, not from its start (a slow one took its whole bound).
        unreachableUntil.put(c.executor(), clock.millis() + UNREACHABLE_BACKOFF_MILLIS);
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
      replayed.add(id);
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
    } finally {
      HomeFiles.replayed(run);
    }
    synchronized (this) {
      history.put(id, new FinishedJob(id, c.executor(), c.job().release(), r.start(), r.end(), r.exitCode(), r.signal(), r.timedOut(), outcome,
          r.outOfMemory()));
    }
    bought.ran(c.executor(), r.start());
    return true;
  }

  /** When the job left home: its release, on the federation's clock, read on this daemon's. */
  private Instant left(Completed c) {
    return Instant.ofEpochMilli(clock.millis() - Math.round((coordination.now() - c.job().release()) * 1000));
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
