package org.coalition.coordination.zookeeper;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.ZooKeeper;
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
import org.coalition.coordination.Market;
import org.coalition.coordination.RunResult;
import org.coalition.coordination.SiteInfo;
import org.coalition.coordination.SiteLedger;
import org.coalition.coordination.SiteStatus;
import org.coalition.zookeeper.policy.Identity;

/**
 * {@link Coordination} on ZooKeeper through Curator (layout in {@link ZkPaths}), one ZooKeeper
 * idea per part, as Curator's recipes are: {@link ZkMembership} (membership and leadership),
 * {@link ZkQueueView} (the watched queue), {@link ZkClaims} (claims with fencing),
 * {@link ZkLedger} (the one fold of results and run records into the ledger) and
 * {@link ZkLostRuns} (the home's sweep for lost runs), over one {@link ZkSite}.
 *
 * <p>Its lifecycle is LATENT (built), STARTED ({@link #start}: the tree is loaded and watched)
 * and CLOSED; calls other than {@link #close} need STARTED. The Curator client is never handed
 * out; fault injection gets the session's id and password through {@link #session}.
 */
public final class ZkCoordination implements Coordination {
  /** Where a handle is in its life. */
  public enum State { LATENT, STARTED, CLOSED }

  private final ZkSite zk;
  private final ZkMembership membership;
  private final ZkLostRuns lostRuns;
  private final ZkQueueView view;
  private final ZkClaims claims;
  private final ZkLedger ledger;
  private final AtomicReference<State> state = new AtomicReference<>(State.LATENT);

  ZkCoordination(CuratorFramework client, ZkPaths paths, Identity self, Clock clock, ZkFederation.Options options) {
    this.zk = new ZkSite(client, paths, self, clock, options);
    this.lostRuns = new ZkLostRuns(zk, this::sweeps);
    this.view = new ZkQueueView(zk, lostRuns::sweepLater, lostRuns::recheckLater, lostRuns::rejectLater);
    this.membership = new ZkMembership(zk, view::leader);
    this.claims = new ZkClaims(zk, view);
    this.ledger = new ZkLedger(zk);
  }

  /** Whether the home's lost-run sweep may run: the handle is started and the site has joined. */
  private boolean sweeps() {
    return state.get() == State.STARTED && membership.joined();
  }

  /** Loads and watches the tree; a lost or regained session triggers a lost-run sweep. */
  ZkCoordination start() {
    if (!state.compareAndSet(State.LATENT, State.STARTED)) {
      throw new IllegalStateException("site " + zk.site + ": start() a handle once, was " + state.get());
    }
    try {
      view.start();
    } catch (RuntimeException e) {
      close();
      throw e;
    }
    zk.client.getConnectionStateListenable().addListener((c, s) -> {
      if (s == ConnectionState.RECONNECTED || s == ConnectionState.LOST) {
        lostRuns.sweepLater();
      }
    });
    return this;
  }

  public State state() {
    return state.get();
  }

  private void open() {
    CoordinationException.requireOpen(zk.site, state.get() == State.CLOSED);
    if (state.get() == State.LATENT) {
      throw new IllegalStateException("site " + zk.site + ": the handle is not started");
    }
  }

  @Override
  public String site() {
    return zk.site;
  }

  @Override
  public void join(SiteInfo info, SiteStatus status) {
    open();
    membership.join(info, status);
    lostRuns.sweepLater();
  }

  @Override
  public void updateStatus(SiteStatus status) {
    open();
    membership.updateStatus(status);
  }

  @Override
  public Map<String, SiteStatus> liveSites() {
    return view.live();
  }

  @Override
  public Map<String, SiteInfo> knownSites() {
    return membership.knownSites();
  }

  @Override
  public void publish(List<JobSpec> batch) {
    CoordinationException.requirePublishable(zk.site, batch);
    open();
    try {
      List<CuratorOp> ops = new ArrayList<>();
      long bytes = 0;
      for (JobSpec job : batch) {
        byte[] record = ZkRecords.write(job);
        bytes += record.length;
        ops.add(zk.client.transactionOp().create().withACL(zk.jobAcl).forPath(zk.paths.job(job.ref()), record));
      }
      requireRoom(batch.size(), bytes);
      zk.client.transaction().forOperations(ops);
    } catch (KeeperException.NodeExistsException e) {
      throw new CoordinationException(Kind.INVALID, "job " + jobAt(e, batch) + " is already published; none of the batch was published");
    } catch (Exception e) {
      throw ZkSite.translate("publishing " + batch.size() + " job(s) from " + batch.get(0).ref(), e);
    }
  }

  /**
   * Refuses a batch that would leave a published job of this site's no room under its quota for
   * the claim and result an executor adds: the servers would refuse those, and the job could
   * never be claimed. Nothing to check where the operator set no quota.
   */
  private void requireRoom(int jobs, long bytes) throws Exception {
    Optional<ZkQuotas.Usage> usage = ZkQuotas.usage(zk.client, zk.paths, zk.site);
    if (usage.isPresent() && !usage.get().quota().fits(usage.get().published(), usage.get().bytes(), jobs, bytes)) {
      throw new CoordinationException(Kind.INVALID, "publishing " + jobs + " more job(s) beside the " + usage.get().published()
          + " published would leave them no room for their claims and results under this site's quota (" + usage.get().quota()
          + "); they stay here until published jobs end, or the operator raises it (coalition federation create --site "
          + zk.site + " --member-nodes N --member-mib M)");
    }
  }

  /** The job whose operation failed in a multi (the first with an error other than "rolled back"). */
  private static JobRef jobAt(KeeperException e, List<JobSpec> batch) {
    List<OpResult> results = e.getResults();
    for (int i = 0; results != null && i < results.size() && i < batch.size(); i++) {
      if (results.get(i) instanceof OpResult.ErrorResult err
          && err.getErr() != KeeperException.Code.OK.intValue() && err.getErr() != KeeperException.Code.RUNTIMEINCONSISTENCY.intValue()) {
        return batch.get(i).ref();
      }
    }
    return batch.get(0).ref();
  }

  @Override
  public boolean withdraw(String jobId) {
    open();
    JobRef ref = new JobRef(zk.site, jobId);
    try {
      // A job with a claim (or a result) has children, and ZooKeeper refuses to delete it:
      // that is what makes a withdrawal and a claim exclusive.
      zk.client.delete().forPath(zk.paths.job(ref));
      return true;
    } catch (KeeperException.NotEmptyException | KeeperException.NoNodeException e) {
      return false;
    } catch (Exception e) {
      throw ZkSite.translate("withdrawing " + ref, e);
    }
  }

  @Override
  public List<JobSpec> queue() {
    return view.queue();
  }

  @Override
  public List<FederatedJob> jobs(String home) {
    return view.jobs(home);
  }

  @Override
  public void watchQueue(Runnable listener) {
    view.watch(listener);
  }

  @Override
  public Optional<Claim> claim(JobRef ref) {
    open();
    return claims.claim(ref);
  }

  @Override
  public void start(Claim claim, double startTime) {
    claims.renew(claim);
  }

  @Override
  public boolean adopt(Claim claim) {
    open();
    zk.requireOwn(claim.executor());
    return claims.adopt(claim);
  }

  @Override
  public void heartbeat(Claim claim) {
    claims.renew(claim);
  }

  @Override
  public boolean holds(Claim claim) {
    return claims.holds(claim);
  }

  @Override
  public void finish(Claim claim, RunResult result) {
    claims.finish(claim, result);
  }

  @Override
  public void release(Claim claim) {
    claims.release(claim);
  }

  @Override
  public int requeueLost() {
    open();
    return lostRuns.requeueLost();
  }

  @Override
  public List<Completed> results() {
    return view.results();
  }

  @Override
  public int acknowledge(List<Completed> done) {
    open();
    return ledger.acknowledge(done);
  }

  @Override
  public boolean reject(Completed result, String reason) {
    open();
    zk.requireOwn(result.job().home());
    return lostRuns.reject(result.job().ref(), result.token(), reason);
  }

  @Override
  public Map<String, Long> refusedPeerRecords() {
    return zk.peerRecords.counts();
  }

  /** This site's handle on the day-ahead capacity market, judged by the federation's calendar (the operator's). */
  @Override
  public Market market() {
    return new ZkMarket(zk, ledger);
  }

  @Override
  public Map<String, SiteLedger> ledgers() {
    return ledger.ledgers();
  }

  @Override
  public Map<String, LedgerRow> ledgerRows() {
    return ledger.rows();
  }

  @Override
  public boolean isLeader() {
    return state.get() == State.STARTED && membership.isLeader();
  }

  @Override
  public void publishAllowances(Allowances allowances) {
    membership.publishAllowances(allowances);
  }

  @Override
  public Allowances allowances() {
    return membership.allowances();
  }

  @Override
  public double now() {
    return zk.now();
  }

  @Override
  public boolean connected() {
    return zk.client.getZookeeperClient().isConnected();
  }

  @Override
  public Optional<String> refusal() {
    return zk.refusal();
  }

  /**
   * This handle's current ZooKeeper session, for fault injection that expires it on the servers
   * (tests, benchmarks); the client itself is never handed out.
   */
  public Session session() {
    ZooKeeper handle = zk.handle();
    return new Session(handle.getSessionId(), handle.getSessionPasswd());
  }

  /** A ZooKeeper session's id and password: what another connection needs to attach to it. */
  public record Session(long id, byte[] password) {}

  @Override
  public void close() {
    if (state.getAndSet(State.CLOSED) == State.CLOSED) {
      return;
    }
    lostRuns.close();
    membership.close();
    view.close();
    zk.client.close();
  }
}
