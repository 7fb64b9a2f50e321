package org.coalition.coordination.memory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.coalition.coordination.Allowances;
import org.coalition.coordination.Claim;
import org.coalition.coordination.Completed;
import org.coalition.coordination.Coordination;
import org.coalition.coordination.CoordinationException;
import org.coalition.coordination.CoordinationException.Kind;
import org.coalition.coordination.FederatedJob;
import org.coalition.coordination.JobRef;
import org.coalition.coordination.JobSpec;
import org.coalition.coordination.LedgerRow;
import org.coalition.coordination.Ledgers;
import org.coalition.coordination.Market;
import org.coalition.coordination.RunResult;
import org.coalition.coordination.SiteInfo;
import org.coalition.coordination.SiteLedger;
import org.coalition.coordination.SiteStatus;
import org.coalition.coordination.UtilitySums;
import org.coalition.coordination.memory.InMemoryFederation.ClaimState;
import org.coalition.coordination.memory.InMemoryFederation.Live;

/**
 * A hand-written in-memory {@link Coordination}: same rules as the ZooKeeper one (it passes the
 * same contract tests), no I/O, for fast unit tests of the daemon's logic. Not a stand-in for
 * the integration tests against real ZooKeeper.
 */
public final class InMemoryCoordination implements Coordination {
  /** Peers' records counted as refused ({@link #refusePeerRecord}). */
  private final Map<String, Long> refused = new ConcurrentHashMap<>();
  private final InMemoryFederation fed;
  private final String site;
  private long session;
  private SiteStatus lastStatus;
  private boolean closed;
  /** Runs after each claim this handle makes, before it is returned: what happens elsewhere meanwhile (a test's hook). */
  private volatile Consumer<Claim> afterClaim = c -> { };

  InMemoryCoordination(InMemoryFederation fed, String site) {
    this.fed = fed;
    this.site = site;
    this.session = fed.newSession();
  }

  @Override
  public String site() {
    return site;
  }

  /**
   * Ends this handle's session as ZooKeeper's expiry would (its live entry goes, its claims turn
   * stale), then starts a new one and announces the site again, as the ZooKeeper handle does
   * after it reconnects.
   */
  public void expireSession() {
    synchronized (fed.lock) {
      fed.live.remove(site);
      session = fed.newSession();
      fed.requeueLost(now());
      if (lastStatus != null && !closed) {
        fed.live.put(site, new Live(session, lastStatus));
      }
    }
    fed.queueChanged();
  }

  @Override
  public void join(SiteInfo info, SiteStatus status) {
    requireOwn(info.site());
    requireOwn(status.site());
    synchronized (fed.lock) {
      open();
      fed.sites.put(site, info);
      fed.ledgers.putIfAbsent(site, LedgerRow.empty(site));
      fed.live.put(site, new Live(session, status));
      lastStatus = status;
      fed.requeueLost(now());
    }
    fed.queueChanged();
  }

  @Override
  public void updateStatus(SiteStatus status) {
    requireOwn(status.site());
    synchronized (fed.lock) {
      open();
      if (!fed.sessionLive(site, session)) {
        throw new CoordinationException(Kind.INVALID, "site " + site + " must join before updating its status");
      }
      fed.live.put(site, new Live(session, status));
      lastStatus = status;
    }
  }

  @Override
  public Map<String, SiteStatus> liveSites() {
    synchronized (fed.lock) {
      Map<String, SiteStatus> out = new HashMap<>();
      fed.live.forEach((s, l) -> out.put(s, l.status()));
      return out;
    }
  }

  @Override
  public Map<String, SiteInfo> knownSites() {
    synchronized (fed.lock) {
      return Map.copyOf(fed.sites);
    }
  }

  @Override
  public void publish(List<JobSpec> jobs) {
    CoordinationException.requirePublishable(site, jobs);
    synchronized (fed.lock) {
      open();
      for (JobSpec job : jobs) {
        if (fed.jobs.containsKey(job.ref()) || fed.results.containsKey(job.ref())) {
          throw new CoordinationException(Kind.INVALID, "job " + job.ref() + " is already published");
        }
      }
      for (JobSpec job : jobs) {
        fed.jobs.put(job.ref(), job);
      }
    }
    fed.queueChanged();
  }

  @Override
  public boolean withdraw(String jobId) {
    JobRef ref = new JobRef(site, jobId);
    synchronized (fed.lock) {
      open();
      if (!fed.jobs.containsKey(ref) || fed.claims.containsKey(ref) || fed.results.containsKey(ref)) {
        return false;
      }
      fed.jobs.remove(ref);
    }
    fed.queueChanged();
    return true;
  }

  @Override
  public List<JobSpec> queue() {
    synchronized (fed.lock) {
      List<JobSpec> out = new ArrayList<>();
      for (Map.Entry<JobRef, JobSpec> e : fed.jobs.entrySet()) {
        JobRef ref = e.getKey();
        if (fed.live.containsKey(ref.home()) && !fed.claims.containsKey(ref) && !fed.results.containsKey(ref)) {
          out.add(e.getValue());
        }
      }
      out.sort(JobSpec.OLDEST_FIRST);
      return out;
    }
  }

  @Override
  public List<FederatedJob> jobs(String home) {
    synchronized (fed.lock) {
      List<FederatedJob> out = new ArrayList<>();
      for (Map.Entry<JobRef, JobSpec> e : fed.jobs.entrySet()) {
        if (!e.getKey().home().equals(home)) {
          continue;
        }
        ClaimState c = fed.claims.get(e.getKey());
        Completed done = fed.results.get(e.getKey());
        String executor = done != null ? done.executor() : c != null && !c.released() ? c.executor() : "";
        out.add(new FederatedJob(e.getValue(), executor, done != null));
      }
      out.sort(Comparator.comparing(FederatedJob::job, JobSpec.OLDEST_FIRST));
      return out;
    }
  }

  @Override
  public void watchQueue(Runnable listener) {
    fed.queueListeners.add(listener);
  }

  @Override
  public Optional<Claim> claim(JobRef ref) {
    Claim claimed;
    synchronized (fed.lock) {
      open();
      JobSpec job = fed.jobs.get(ref);
      if (job == null || fed.claims.containsKey(ref) || fed.results.containsKey(ref) || !fed.live.containsKey(ref.home())) {
        return Optional.empty();
      }
      if (!fed.sessionLive(site, session)) {
        throw new CoordinationException(Kind.INVALID, "site " + site + " must join before claiming jobs");
      }
      long token = fed.nextToken++;
      fed.claims.put(ref, new ClaimState(site, session, token, false, false, now(), fed.clock.millis()));
      claimed = new Claim(job, site, token);
    }
    fed.queueChanged();
    afterClaim.accept(claimed);
    return Optional.of(claimed);
  }

  /** Sets what runs after each claim this handle makes, before the claimer gets it. */
  public void afterClaim(Consumer<Claim> hook) {
    afterClaim = hook;
  }

  @Override
  public boolean adopt(Claim claim) {
    synchronized (fed.lock) {
      open();
      requireOwn(claim.executor());
      if (!fed.sessionLive(site, session)) {
        throw new CoordinationException(Kind.INVALID, "site " + site + " must join before adopting claims");
      }
      ClaimState c = fed.claims.get(claim.ref());
      if (c == null || c.token() != claim.token() || !c.executor().equals(site) || c.released()) {
        throw CoordinationException.stale(claim, "the job's claim is no longer this site's");
      }
      if (fed.results.containsKey(claim.ref())) {
        return false; // handed in before the restart: nothing to take back
      }
      fed.claims.put(claim.ref(), new ClaimState(site, session, c.token(), c.started(), false, c.claimedAt(), fed.clock.millis()));
      fed.sessionGoneSince.remove(claim.ref());
      return true;
    }
  }

  @Override
  public void start(Claim claim, double startTime) {
    synchronized (fed.lock) {
      fed.claims.put(claim.ref(), current(claim).renewed(fed.clock.millis(), true));
    }
  }

  @Override
  public void heartbeat(Claim claim) {
    synchronized (fed.lock) {
      fed.claims.put(claim.ref(), current(claim).renewed(fed.clock.millis(), false));
    }
  }

  @Override
  public void finish(Claim claim, RunResult result) {
    synchronized (fed.lock) {
      Completed existing = fed.results.get(claim.ref());
      if (existing != null && existing.token() == claim.token() && existing.executor().equals(site)) {
        return; // a repeated call after an ambiguous failure: already accepted
      }
      ClaimState held = current(claim);
      if (existing != null) {
        throw new CoordinationException(Kind.STALE, "job " + claim.ref() + " already has a result");
      }
      fed.results.put(claim.ref(), new Completed(claim.job(), site, claim.token(), result, held.claimedAt(), now()));
    }
  }

  @Override
  public boolean holds(Claim claim) {
    synchronized (fed.lock) {
      ClaimState c = fed.claims.get(claim.ref());
      return c != null && !c.released() && c.token() == claim.token() && c.session() == session && fed.sessionLive(site, session);
    }
  }

  @Override
  public void release(Claim claim) {
    synchronized (fed.lock) {
      current(claim);
      if (fed.results.containsKey(claim.ref())) {
        throw new CoordinationException(Kind.INVALID, "job " + claim.ref() + " has a result; it cannot be released");
      }
      ClaimState c = fed.claims.get(claim.ref());
      fed.claims.put(claim.ref(), new ClaimState(c.executor(), c.session(), c.token(), c.started(), true, c.claimedAt(), c.renewedMillis()));
      fed.requeueLost(now());
    }
    fed.queueChanged();
  }

  @Override
  public int requeueLost() {
    int n;
    synchronized (fed.lock) {
      open();
      n = fed.requeueLost(now());
    }
    if (n > 0) {
      fed.queueChanged();
    }
    return n;
  }

  @Override
  public List<Completed> results() {
    synchronized (fed.lock) {
      return fed.results.values().stream().filter(c -> c.job().home().equals(site)).toList();
    }
  }

  @Override
  public int acknowledge(List<Completed> done) {
    synchronized (fed.lock) {
      open();
      int n = 0;
      LedgerRow ledger = fed.ledgers.getOrDefault(site, LedgerRow.empty(site));
      for (Completed c : done) {
        requireOwn(c.job().home());
        Completed held = fed.results.get(c.job().ref());
        if (held == null || held.token() != c.token()) {
          continue;
        }
        ledger = ledger.accepted(held.executor(), UtilitySums.of(c.job().release(), c.result(), c.job().cores()));
        fed.results.remove(c.job().ref());
        fed.claims.remove(c.job().ref());
        fed.jobs.remove(c.job().ref());
        n++;
      }
      fed.ledgers.put(site, ledger);
      return n;
    }
  }

  @Override
  public boolean reject(Completed result, String reason) {
    JobRef ref = result.job().ref();
    synchronized (fed.lock) {
      open();
      requireOwn(ref.home());
      Completed held = fed.results.get(ref);
      if (held == null || held.token() != result.token()) {
        return false;
      }
      fed.results.remove(ref);
      fed.claims.remove(ref);
      fed.jobs.put(ref, fed.jobs.get(ref).releasedAt(now()));
    }
    fed.queueChanged();
    return true;
  }

  /** Counts a peer's record as refused: this store reads no peer's bytes, so tests of what reports the counts say so here. */
  public void refusePeerRecord(String record) {
    refused.merge(record, 1L, Long::sum);
  }

  @Override
  public Map<String, Long> refusedPeerRecords() {
    return Map.copyOf(refused);
  }

  @Override
  public Map<String, SiteLedger> ledgers() {
    synchronized (fed.lock) {
      return Ledgers.of(fed.ledgers.values(), fed.ledgers.keySet());
    }
  }

  @Override
  public Map<String, LedgerRow> ledgerRows() {
    synchronized (fed.lock) {
      return new TreeMap<>(fed.ledgers);
    }
  }

  @Override
  public boolean isLeader() {
    synchronized (fed.lock) {
      return !fed.live.isEmpty() && fed.live.keySet().iterator().next().equals(site) && fed.sessionLive(site, session);
    }
  }

  @Override
  public void publishAllowances(Allowances allowances) {
    synchronized (fed.lock) {
      if (!isLeader()) {
        throw new CoordinationException(Kind.FORBIDDEN, "site " + site + " is not the leader; only the leader publishes allowances");
      }
      requireOwn(allowances.leader());
      fed.allowances.put(site, allowances);
    }
  }

  @Override
  public Allowances allowances() {
    synchronized (fed.lock) {
      if (fed.live.isEmpty()) {
        return Allowances.NONE;
      }
      return fed.allowances.getOrDefault(fed.live.keySet().iterator().next(), Allowances.NONE);
    }
  }

  @Override
  public boolean connected() {
    return true;
  }

  @Override
  public Market market() {
    return new InMemoryMarket(fed, site);
  }

  @Override
  public double now() {
    return (fed.clock.millis() - fed.epochMillis) / 1000.0;
  }

  @Override
  public void close() {
    synchronized (fed.lock) {
      if (closed) {
        return;
      }
      closed = true;
      if (fed.sessionLive(site, session)) {
        fed.live.remove(site);
      }
      session = -1;
      fed.requeueLost(now());
    }
    fed.queueChanged();
  }

  /** The job's claim if {@code claim} is still it and this handle's session holds it; STALE otherwise. */
  private ClaimState current(Claim claim) {
    open();
    ClaimState c = fed.claims.get(claim.ref());
    if (c == null) {
      throw CoordinationException.stale(claim, "the job has no claim any more");
    }
    if (c.token() != claim.token()) {
      throw CoordinationException.stale(claim, "the job's claim is now " + c.token());
    }
    if (c.executor().equals(site) && c.session() != session && !c.released() && fed.sessionLive(site, session)
        && !fed.restartGrace.getOrDefault(site, Duration.ZERO).isZero() && !fed.results.containsKey(claim.ref())) {
      // its session ended and the home has not requeued it yet: taken back under this one, as ZooKeeper's handle does
      c = new ClaimState(site, session, c.token(), c.started(), false, c.claimedAt(), fed.clock.millis());
      fed.claims.put(claim.ref(), c);
      fed.sessionGoneSince.remove(claim.ref());
    }
    if (!c.executor().equals(site) || c.session() != session || c.released() || !fed.sessionLive(site, session)) {
      throw CoordinationException.stale(claim, "the session that made it has ended");
    }
    return c;
  }

  private void requireOwn(String owner) {
    CoordinationException.requireOwn(site, owner);
  }

  private void open() {
    CoordinationException.requireOpen(site, closed);
  }
}
