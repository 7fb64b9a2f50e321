package org.coalition.bench;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.coalition.coordination.Claim;
import org.coalition.coordination.Completed;
import org.coalition.coordination.Coordination;
import org.coalition.coordination.CoordinationException;
import org.coalition.coordination.CoordinationException.Kind;
import org.coalition.coordination.JobRef;
import org.coalition.coordination.JobSpec;
import org.coalition.coordination.RunResult;
import org.coalition.coordination.SiteInfo;
import org.coalition.coordination.SiteLedger;
import org.coalition.coordination.SiteStatus;
import org.coalition.coordination.zookeeper.ZkCoordination;
import org.coalition.coordination.zookeeper.ZkFederation;
import org.coalition.coordination.zookeeper.ZkTls;

/**
 * One site in the benchmark, doing what the daemon does with the coordination layer: its home
 * thread publishes its jobs (a bounded number at a time), acts on results and acknowledges them
 * (crediting their executors); its workers, woken by the queue's watch, claim other sites' jobs, start them and
 * hand in a result at once (a run's length is drawn, not waited for). A worker picks at random
 * among the jobs whose hash falls to its site (another site's once it has waited 250 ms) and never
 * one another worker of its site is claiming: the real daemon claims when a pilot asks for work,
 * seldom at once; without the spread, 32 workers racing for one queue waste most claims.
 */
final class BenchDaemon {
  static final int CORES = 2;
  /** A job whose hash falls to another site is taken once it has waited this long (that site is busy). */
  private static final double STEAL_AFTER_SECONDS = 0.25;
  private static final long STEAL_WAIT_MILLIS = 100;
  /** Attempts at starting a killed daemon again before the benchmark gives up on it. */
  private static final int RECONNECT_ATTEMPTS = 30;

  private final CoordinationBenchmark bench;
  private final String connectString;
  private final ZkTls tls;
  private final String site;
  private final int ownJobs;
  private final Object signal = new Object();
  /** Jobs this daemon's workers are claiming right now: two workers of one site never race for one job. */
  private final Set<JobRef> trying = ConcurrentHashMap.newKeySet();
  /** This daemon's number: it tries first the jobs whose hash falls to it, so sites seldom race for one job. */
  private final int index;
  private final List<Thread> threads = new ArrayList<>();
  private volatile ZkCoordination coordination;

  BenchDaemon(CoordinationBenchmark bench, String connectString, ZkTls tls, int index, int ownJobs) {
    this.bench = bench;
    this.index = index;
    this.site = tls.who().name();
    this.connectString = connectString;
    this.tls = tls;
    this.ownJobs = ownJobs;
    this.coordination = connect();
  }

  private ZkCoordination connect() {
    ZkCoordination c = ZkFederation.connect(connectString, tls, Clock.systemUTC(),
        new ZkFederation.Options(bench.config().sessionTimeout(), Duration.ofSeconds(Math.max(10, bench.config().sessionTimeout().toSeconds()))));
    c.watchQueue(this::wake);
    c.join(new SiteInfo(site, "", 1000), new SiteStatus(site, 1000, 0, 0, 0.5, 1e9));
    return c;
  }

  void start() {
    threads.add(thread("home", this::homeLoop));
    for (int w = 0; w < bench.config().workers(); w++) {
      threads.add(thread("worker-" + w, new Worker(new Random(bench.config().seed() * 1000 + site.hashCode() + w))::loop));
    }
    threads.forEach(Thread::start);
  }

  private Thread thread(String name, Runnable body) {
    Thread t = new Thread(body, "bench-" + site + "-" + name);
    t.setDaemon(true);
    return t;
  }

  /** Kills this site's daemon (its handle closes, its session with it) and starts a new one. */
  synchronized void restart() throws InterruptedException {
    coordination.close();
    // As a supervisor restarts a daemon that fails to start: the ensemble may be electing a leader.
    for (int attempt = 1; ; attempt++) {
      try {
        coordination = connect();
        return;
      } catch (CoordinationException e) {
        if (attempt == RECONNECT_ATTEMPTS) {
          throw e;
        }
        System.err.printf("[chaos] %s could not start again (attempt %d of %d): %s%n", site, attempt, RECONNECT_ATTEMPTS, e.getMessage());
        Thread.sleep(1000);
      }
    }
  }

  boolean isLeader() {
    return coordination.isLeader();
  }

  ZkCoordination.Session session() throws Exception {
    return coordination.session();
  }

  void stop() throws InterruptedException {
    wakeAll();
    for (Thread t : threads) {
      t.join(30_000);
    }
  }

  void close() {
    coordination.close();
  }

  /** The ledgers as the homes credited them. */
  Map<String, SiteLedger> finalLedgers() {
    return coordination.ledgers();
  }

  /** A queue change wakes one waiting worker (not all: they would race for the same job). */
  private void wake() {
    synchronized (signal) {
      signal.notify();
    }
  }

  private void wakeAll() {
    synchronized (signal) {
      signal.notifyAll();
    }
  }

  private void await(long millis) {
    synchronized (signal) {
      try {
        signal.wait(millis);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private void homeLoop() {
    int published = 0;
    Set<String> finished = new HashSet<>();
    while (!bench.stopping()) {
      ZkCoordination c = coordination;
      try {
        while (published < ownJobs && published - finished.size() < bench.config().inFlight()) {
          int n = Math.min(Coordination.MAX_PUBLISH_BATCH, Math.min(ownJobs - published, bench.config().inFlight() - (published - finished.size())));
          List<JobSpec> batch = new ArrayList<>();
          for (int i = 0; i < n; i++) {
            batch.add(JobSpec.builder("j" + (published + i), site).cores(CORES).walltimeSeconds(3600).release(c.now()).build());
          }
          try {
            c.publish(batch);
          } catch (CoordinationException e) {
            if (e.kind() != Kind.INVALID) {
              throw e;
            }
            // published before the connection broke: Curator's retry found the batch there
          }
          batch.forEach(bench::published);
          published += n;
        }
        List<Completed> results = c.results();
        for (Completed r : results) {
          bench.observed(r);
          finished.add(r.job().jobId());
        }
        if (!results.isEmpty()) {
          c.acknowledge(results);
        }
      } catch (CoordinationException e) {
        CoordinationBenchmark.sleepQuietly(50); // ZooKeeper busy or a fault: try again
        continue;
      }
      await(100);
    }
  }

  /** The site a job falls to: by hash among the sites other than its home. */
  private int owner(JobRef ref) {
    int home = Integer.parseInt(ref.home().substring("site".length()));
    int bucket = Math.floorMod(ref.hashCode(), bench.config().daemons() - 1);
    return bucket >= home ? bucket + 1 : bucket;
  }

  private final class Worker {
    private final Random random;

    Worker(Random random) {
      this.random = random;
    }

    void loop() {
      while (!bench.stopping()) {
        ZkCoordination c = coordination;
        List<JobSpec> queue = c.queue().stream().filter(j -> !j.home().equals(site) && !trying.contains(j.ref())).toList();
        if (queue.isEmpty()) {
          await(200);
          continue;
        }
        List<JobSpec> from = queue.stream().filter(j -> owner(j.ref()) == index).toList();
        if (from.isEmpty()) {
          double now = c.now();
          from = queue.stream().filter(j -> now - j.release() > STEAL_AFTER_SECONDS).toList();
        }
        if (from.isEmpty()) {
          await(STEAL_WAIT_MILLIS); // the jobs queued fall to other sites; take one if they leave it
          continue;
        }
        JobSpec job = from.get(random.nextInt(from.size()));
        if (!trying.add(job.ref())) {
          continue;
        }
        boolean started = false;
        try {
          Optional<Claim> claim = c.claim(job.ref());
          if (claim.isEmpty()) {
            bench.claimLost();
            continue;
          }
          bench.claimed(claim.get());
          double t = c.now();
          c.start(claim.get(), t);
          started = true;
          bench.started(claim.get());
          double length = 1 + Math.floorMod(job.ref().toString().hashCode(), 100);
          c.finish(claim.get(), RunResult.builder(t, t + length).build());
        } catch (CoordinationException e) {
          if (started) {
            bench.cancelled(e); // the run is killed: its claim was lost with a session
          }
          if (e.kind() != Kind.STALE) {
            CoordinationBenchmark.sleepQuietly(20);
          }
        } finally {
          trying.remove(job.ref());
        }
      }
    }
  }
}
