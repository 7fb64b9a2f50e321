package org.coalition.coordination.memory;

import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.coalition.coordination.Allowances;
import org.coalition.coordination.Completed;
import org.coalition.coordination.JobRef;
import org.coalition.coordination.JobSpec;
import org.coalition.coordination.SiteInfo;
import org.coalition.coordination.SiteLedger;
import org.coalition.coordination.SiteStatus;
import org.coalition.coordination.UtilitySums;

/**
 * The shared state of a federation held in one JVM: what ZooKeeper holds for the real
 * implementation, behind one lock. Sessions are numbered; ending one (a site's
 * {@link InMemoryCoordination#expireSession()} or {@code close()}) has the effects ZooKeeper's
 * session expiry has: the site's live entry goes, and its claims stop being honoured.
 */
public final class InMemoryFederation {
  final Object lock = new Object();
  final Clock clock;
  final long epochMillis;
  long nextSession = 1;
  long nextToken = 1;
  final Map<String, SiteInfo> sites = new HashMap<>();
  /** Live sites in the order they joined (the first is the leader, as with Curator's latch). */
  final LinkedHashMap<String, Live> live = new LinkedHashMap<>();
  final Map<JobRef, JobSpec> jobs = new LinkedHashMap<>();
  final Map<JobRef, ClaimState> claims = new HashMap<>();
  final Map<JobRef, Completed> results = new LinkedHashMap<>();
  /** Finished-run records per executing site, waiting for compaction. */
  final Map<String, List<Done>> done = new HashMap<>();
  final Map<String, SiteLedger> ledgers = new HashMap<>();
  final Map<String, Allowances> allowances = new HashMap<>();
  final List<Runnable> queueListeners = new CopyOnWriteArrayList<>();

  record Live(long session, SiteStatus status) {}

  record ClaimState(String executor, long session, long token, boolean started, boolean released, double claimedAt) {}

  record Done(JobRef job, UtilitySums sums) {}

  public InMemoryFederation(Clock clock) {
    this.clock = clock;
    this.epochMillis = clock.millis();
  }

  /** A new handle for {@code site}, with its own session. */
  public InMemoryCoordination connect(String site) {
    return new InMemoryCoordination(this, JobSpec.requireId("site", site));
  }

  long newSession() {
    synchronized (lock) {
      return nextSession++;
    }
  }

  boolean sessionLive(String site, long session) {
    Live l = live.get(site);
    return l != null && l.session() == session;
  }

  /**
   * What each live home site's handle does when it sees a claim's executor session end or a claim
   * given up: the job goes back to the queue, released now. Called with the lock held.
   */
  int requeueLost(double now) {
    int n = 0;
    for (Map.Entry<JobRef, ClaimState> e : new ArrayList<>(claims.entrySet())) {
      JobRef ref = e.getKey();
      ClaimState c = e.getValue();
      if (live.containsKey(ref.home()) && !results.containsKey(ref) && (c.released() || !sessionLive(c.executor(), c.session()))) {
        claims.remove(ref);
        jobs.put(ref, jobs.get(ref).releasedAt(now));
        n++;
      }
    }
    return n;
  }

  void queueChanged() {
    for (Runnable r : new ArrayList<>(queueListeners)) {
      r.run();
    }
  }
}
