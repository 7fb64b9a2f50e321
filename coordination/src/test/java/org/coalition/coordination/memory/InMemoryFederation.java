package org.coalition.coordination.memory;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.coalition.coordination.Allowances;
import org.coalition.coordination.Completed;
import org.coalition.coordination.JobRef;
import org.coalition.coordination.JobSpec;
import org.coalition.coordination.LedgerRow;
import org.coalition.coordination.SiteInfo;
import org.coalition.coordination.SiteStatus;
import org.coalition.policy.contracts.MarketCalendar;

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
  /** Live sites in the order they joined (the first is the leader, as the oldest live node is in ZooKeeper). */
  final LinkedHashMap<String, Live> live = new LinkedHashMap<>();
  final Map<JobRef, JobSpec> jobs = new LinkedHashMap<>();
  final Map<JobRef, ClaimState> claims = new HashMap<>();
  final Map<JobRef, Completed> results = new LinkedHashMap<>();
  /** Each home's ledger row. */
  final Map<String, LedgerRow> ledgers = new HashMap<>();
  /** Each home's restart grace, and since when (clock millis) each claim's executor session has been gone. */
  final Map<String, Duration> restartGrace = new HashMap<>();
  final Map<JobRef, Long> sessionGoneSince = new HashMap<>();
  final Map<String, Allowances> allowances = new HashMap<>();
  final List<Runnable> queueListeners = new CopyOnWriteArrayList<>();
  /** The market's calendar (the operator's, {@link #setMarketCalendar}) and every member's market records, in the order written. */
  MarketCalendar marketCalendar = MarketCalendar.DEFAULT;
  final List<InMemoryMarket.Written> market = new ArrayList<>();

  record Live(long session, SiteStatus status) {}

  record ClaimState(String executor, long session, long token, boolean started, boolean released, double claimedAt, long renewedMillis) {
    ClaimState renewed(long atMillis, boolean start) {
      return new ClaimState(executor, session, token, started || start, released, claimedAt, atMillis);
    }
  }


  /** The claim lease, and the most of one home's jobs a member may hold, as ZooKeeper's handles keep them. */
  final Duration claimLease;
  final int maxClaimsPerMember;

  public InMemoryFederation(Clock clock) {
    this(clock, Duration.ofMinutes(5), 256);
  }

  public InMemoryFederation(Clock clock, Duration claimLease, int maxClaimsPerMember) {
    this.clock = clock;
    this.epochMillis = clock.millis();
    this.claimLease = claimLease;
    this.maxClaimsPerMember = maxClaimsPerMember;
  }

  /** Sets the market's calendar, as the operator does with {@code coalition federation market}. */
  public void setMarketCalendar(MarketCalendar calendar) {
    synchronized (lock) {
      marketCalendar = calendar;
    }
  }

  /** A new handle for {@code site}, with its own session. */
  public InMemoryCoordination connect(String site) {
    return connect(site, Duration.ZERO);
  }

  /**
   * A new handle for {@code site}, which as a home waits {@code restartGrace} after a claim's
   * executor lost its session before it requeues the job (the executor may adopt it meanwhile).
   */
  public InMemoryCoordination connect(String site, Duration restartGrace) {
    synchronized (lock) {
      this.restartGrace.put(JobSpec.requireId("site", site), restartGrace);
    }
    return new InMemoryCoordination(this, site);
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
   * What each live home site's handle does when it sees a claim's executor session end, a claim
   * given up, a claim not renewed for the lease, or a member holding more of its jobs than the
   * cap (the newest past it): the job goes back to the queue, released now. Called with the lock
   * held.
   */
  int requeueLost(double now) {
    int n = 0;
    List<Map.Entry<JobRef, ClaimState>> all = new ArrayList<>(claims.entrySet());
    all.sort(Comparator.comparingLong(e -> e.getValue().token()));
    Map<String, Integer> held = new HashMap<>();
    for (Map.Entry<JobRef, ClaimState> e : all) {
      JobRef ref = e.getKey();
      ClaimState c = e.getValue();
      if (!live.containsKey(ref.home()) || results.containsKey(ref)) {
        continue;
      }
      boolean gone = !sessionLive(c.executor(), c.session());
      if (gone) {
        sessionGoneSince.putIfAbsent(ref, clock.millis());
      } else {
        sessionGoneSince.remove(ref);
      }
      boolean lostSession = gone && clock.millis() - sessionGoneSince.get(ref) >= restartGrace.getOrDefault(ref.home(), Duration.ZERO).toMillis();
      boolean lost = c.released() || lostSession || clock.millis() - c.renewedMillis() > claimLease.toMillis()
          || held.merge(ref.home() + "/" + c.executor(), 1, Integer::sum) > maxClaimsPerMember;
      if (lost) {
        sessionGoneSince.remove(ref);
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
