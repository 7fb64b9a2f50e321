package org.coalition.bench;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;
import org.coalition.coordination.Claim;
import org.coalition.coordination.Completed;
import org.coalition.coordination.CoordinationException;
import org.coalition.coordination.JobRef;
import org.coalition.coordination.JobSpec;
import org.coalition.coordination.RunResult;
import org.coalition.coordination.SiteLedger;
import org.coalition.coordination.zookeeper.ZkCoordination;
import org.coalition.coordination.zookeeper.ZkFederation;
import org.coalition.coordination.zookeeper.ZkTls;
import org.coalition.policy.fairness.Utility;
import org.coalition.testbed.zookeeper.Ensemble;
import org.coalition.zookeeper.policy.Identity;

/**
 * {@code bench coordination}: D daemons on an in-process ensemble run J jobs through the whole
 * lifecycle (publish, claim, start, end, acknowledge and fold), optionally while servers restart,
 * sessions expire and the leader's daemon is killed, and the run checks the outcome: each job's
 * result accepted exactly once, none lost, ledgers equal to the accepted results.
 */
public final class CoordinationBenchmark {
  /** What to run. {@code workers} claim in parallel per daemon; {@code inFlight} bounds each home's published, unfinished jobs. */
  public record Config(int daemons, int jobs, int ensemble, boolean faults, int workers, int inFlight, long seed, Duration timeout,
      Duration sessionTimeout) {
    /** The sessions' timeout unless told: 10 s. */
    public static final Duration SESSION_TIMEOUT = Duration.ofSeconds(10);

    public Config(int daemons, int jobs, int ensemble, boolean faults, int workers, int inFlight, long seed, Duration timeout) {
      this(daemons, jobs, ensemble, faults, workers, inFlight, seed, timeout, SESSION_TIMEOUT);
    }

    public Config {
      if (daemons < 2) {
        throw new IllegalArgumentException("--daemons must be at least 2 (jobs run away from home), was " + daemons);
      }
      if (jobs < 1) {
        throw new IllegalArgumentException("--jobs must be at least 1, was " + jobs);
      }
      if (ensemble != 1 && ensemble != 3) {
        throw new IllegalArgumentException("--ensemble must be 1 or 3, was " + ensemble);
      }
      if (workers < 1 || inFlight < 1) {
        throw new IllegalArgumentException("workers and in-flight jobs must be at least 1");
      }
      if (sessionTimeout.compareTo(Duration.ofSeconds(1)) < 0 || sessionTimeout.compareTo(Duration.ofSeconds(60)) > 0) {
        throw new IllegalArgumentException("--session-timeout must be from 1s to 60s (the test servers' bounds), was " + sessionTimeout);
      }
    }
  }

  /** The figures of one run (the JSON of the command). */
  public record Result(int jobs, int acceptedOnce, int lost, int duplicateResults, int duplicateStarts, int cancelledStarts,
      int claimsLost, double lifecyclesPerSecond, double rawWritesPerSecond, Map<String, Double> claimLatencyMs, boolean ledgerConsistent,
      String ledgerCheck, Map<String, Integer> faults, List<String> faultsNotInjected, int daemons, int ensemble, double seconds) {}

  private final Config config;
  private final IntConsumer progress;
  private final Map<JobRef, Long> publishedAt = new ConcurrentHashMap<>();
  private final Map<JobRef, AtomicInteger> starts = new ConcurrentHashMap<>();
  private final Map<JobRef, Map<Long, RunResult>> observed = new ConcurrentHashMap<>();
  private final ConcurrentLinkedQueue<Long> claimLatencies = new ConcurrentLinkedQueue<>();
  private final AtomicInteger cancelled = new AtomicInteger();
  private final AtomicInteger claimsLost = new AtomicInteger();
  private final AtomicInteger finishedJobs = new AtomicInteger();
  private final Map<String, AtomicInteger> faultCounts = new ConcurrentHashMap<>();
  /** Why each fault counted in {@code faultErrors} could not be injected: a failed run's report says so. */
  private final ConcurrentLinkedQueue<String> faultsNotInjected = new ConcurrentLinkedQueue<>();
  private final AtomicBoolean stop = new AtomicBoolean();

  public CoordinationBenchmark(Config config, IntConsumer progress) {
    this.config = config;
    this.progress = progress;
  }

  /**
   * Starts the ensemble, warms the JVM up with a short run of its own (a fifth of the jobs, at
   * most 1,000, no faults, results discarded, as JMH's warm-up iterations), then measures.
   */
  public Result run() throws Exception {
    try (Ensemble ensemble = Ensemble.start(config.ensemble())) {
      int warmup = Math.min(1000, config.jobs() / 5);
      if (warmup >= config.daemons()) {
        Config w = new Config(config.daemons(), warmup, config.ensemble(), false, config.workers(), config.inFlight(), config.seed(),
            config.timeout(), config.sessionTimeout());
        new CoordinationBenchmark(w, done -> {}).runOn(ensemble, "warmup");
      }
      return runOn(ensemble, "bench");
    }
  }

  private static ZkTls tls(Ensemble ensemble, Identity who) {
    return new ZkTls(ensemble.identity(who), ensemble.trustStore());
  }

  private Result runOn(Ensemble ensemble, String federation) throws Exception {
    List<String> sites = new ArrayList<>();
    for (int d = 0; d < config.daemons(); d++) {
      sites.add("site" + d);
    }
    ZkTls operator = tls(ensemble, Identity.operator(federation));
    ZkFederation.bootstrap(ensemble.connectString(), operator, sites, Clock.systemUTC());
    double raw = RawWrites.measure(ensemble.connectString(), federation, operator, config.daemons(), config.workers(), Duration.ofSeconds(3));
    List<BenchDaemon> daemons = new ArrayList<>();
    int perHome = config.jobs() / config.daemons();
    for (int d = 0; d < config.daemons(); d++) {
      int own = perHome + (d < config.jobs() % config.daemons() ? 1 : 0);
      daemons.add(new BenchDaemon(this, ensemble.connectString(), tls(ensemble, new Identity(federation, "site" + d)), d, own));
    }
    long t0 = System.nanoTime();
    daemons.forEach(BenchDaemon::start);
    Thread chaos = config.faults() ? startFaults(ensemble, daemons) : null;
    long deadline = t0 + config.timeout().toNanos();
    while (finishedJobs.get() < config.jobs() && System.nanoTime() < deadline) {
      progress.accept(finishedJobs.get());
      Thread.sleep(200);
    }
    long t1 = System.nanoTime();
    progress.accept(finishedJobs.get());
    stop.set(true);
    if (chaos != null) {
      chaos.interrupt();
      chaos.join(30_000);
    }
    for (BenchDaemon d : daemons) {
      d.stop();
    }
    Map<String, SiteLedger> ledgers = daemons.get(0).finalLedgers();
    for (BenchDaemon d : daemons) {
      d.close();
    }
    return result(ledgers, (t1 - t0) / 1e9, raw);
  }

  private Result result(Map<String, SiteLedger> ledgers, double seconds, double raw) {
    int acceptedOnce = 0;
    int duplicates = 0;
    double work = 0;
    for (Map<Long, RunResult> results : observed.values()) {
      if (results.size() == 1) {
        acceptedOnce++;
      } else {
        duplicates++;
      }
      RunResult r = results.values().iterator().next();
      work += (r.end() - r.start()) * BenchDaemon.CORES;
    }
    int lost = config.jobs() - observed.size();
    int duplicateStarts = starts.values().stream().mapToInt(a -> Math.max(0, a.get() - 1)).sum();
    long executed = ledgers.values().stream().mapToLong(SiteLedger::jobsExecuted).sum();
    long submitted = ledgers.values().stream().mapToLong(SiteLedger::jobsSubmitted).sum();
    double contribution = ledgers.values().stream().mapToDouble(l -> l.contribution().get(Utility.SIMPL).at(0)).sum();
    double utility = ledgers.values().stream().mapToDouble(l -> l.utility().get(Utility.SIMPL).at(0)).sum();
    boolean consistent = executed == observed.size() && submitted == observed.size()
        && Math.abs(contribution - work) < 1e-6 * Math.max(1, work) && Math.abs(utility - work) < 1e-6 * Math.max(1, work);
    String check = String.format("executed %d, submitted %d, accepted %d; contribution %.0f, utility %.0f, accepted work %.0f core-s",
        executed, submitted, observed.size(), contribution, utility, work);
    double[] lat = claimLatencies.stream().mapToDouble(nanos -> nanos / 1e6).sorted().toArray();
    Map<String, Double> latency = new LinkedHashMap<>();
    latency.put("p50", Percentiles.of(lat, 0.50));
    latency.put("p99", Percentiles.of(lat, 0.99));
    latency.put("max", lat.length == 0 ? 0 : round(lat[lat.length - 1]));
    Map<String, Integer> faults = new LinkedHashMap<>();
    faultCounts.forEach((k, v) -> faults.put(k, v.get()));
    return new Result(config.jobs(), acceptedOnce, lost, duplicates, duplicateStarts, cancelled.get(), claimsLost.get(),
        round(observed.size() / seconds), round(raw), latency, consistent, check, faults, List.copyOf(faultsNotInjected),
        config.daemons(), config.ensemble(), round(seconds));
  }

  private static double round(double v) {
    return Percentiles.round(v);
  }

  /**
   * How long one fault is tried (every 2 s) before it counts as {@code faultErrors}: the ensemble
   * may be mid-election, or the leader's daemon just restarted and none leads yet (an election
   * on a loaded 2-core host has taken longer than the 6 s three attempts allowed).
   */
  private static final Duration FAULT_PATIENCE = Duration.ofSeconds(20);

  private Thread startFaults(Ensemble ensemble, List<BenchDaemon> daemons) {
    Random random = new Random(config.seed());
    Thread t = new Thread(() -> {
      try {
        Thread.sleep(1000);
        int round = 0;
        while (!stop.get()) {
          switch (round++ % 3) {
            case 0 -> inject("serverRestarts", () -> ensemble.restartServer(random));
            case 1 -> {
              BenchDaemon victim = daemons.get(random.nextInt(daemons.size()));
              inject("sessionsExpired", () -> {
                ZkCoordination.Session session = victim.session();
                ensemble.expireSession(session.id(), session.password());
              });
            }
            default -> inject("leaderKills", () -> {
              for (BenchDaemon d : daemons) {
                if (d.isLeader()) {
                  d.restart();
                  return;
                }
              }
              throw new IllegalStateException("no daemon leads the federation now");
            });
          }
          Thread.sleep(1500);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "bench-faults");
    t.setDaemon(true);
    t.start();
    return t;
  }

  private interface FaultAction {
    void run() throws Exception;
  }

  private void inject(String kind, FaultAction action) throws InterruptedException {
    long deadline = System.nanoTime() + FAULT_PATIENCE.toNanos();
    for (int attempt = 1; !stop.get(); attempt++) {
      try {
        action.run();
        fault(kind);
        return;
      } catch (InterruptedException e) {
        throw e;
      } catch (Exception e) {
        System.err.printf("[chaos] %s failed (attempt %d): %s%n", kind, attempt, e);
        if (System.nanoTime() > deadline) {
          e.printStackTrace(System.err);
          faultsNotInjected.add(kind + " after " + attempt + " attempts: " + e);
          fault("faultErrors");
          return;
        }
        fault("faultRetries");
        Thread.sleep(2000);
      }
    }
  }

  private void fault(String kind) {
    faultCounts.computeIfAbsent(kind, k -> new AtomicInteger()).incrementAndGet();
  }

  // --- callbacks from the daemons ----------------------------------------------------------------

  Config config() {
    return config;
  }

  boolean stopping() {
    return stop.get();
  }

  void published(JobSpec job) {
    publishedAt.putIfAbsent(job.ref(), System.nanoTime());
  }

  void claimed(Claim claim) {
    Long at = publishedAt.get(claim.ref());
    if (at != null) {
      claimLatencies.add(System.nanoTime() - at);
    }
  }

  void started(Claim claim) {
    starts.computeIfAbsent(claim.ref(), r -> new AtomicInteger()).incrementAndGet();
  }

  /** A claim attempt found the job taken, withdrawn or changed (a wasted write). */
  void claimLost() {
    claimsLost.incrementAndGet();
  }

  void cancelled(CoordinationException e) {
    cancelled.incrementAndGet();
  }

  /** A home saw a result; returns whether this job is newly finished. */
  boolean observed(Completed c) {
    Map<Long, RunResult> results = observed.computeIfAbsent(c.job().ref(), r -> new ConcurrentHashMap<>());
    boolean first = results.isEmpty();
    results.putIfAbsent(c.token(), c.result());
    if (first && results.size() == 1) {
      finishedJobs.incrementAndGet();
      return true;
    }
    return false;
  }

  static void sleepQuietly(long ms) {
    try {
      TimeUnit.MILLISECONDS.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
