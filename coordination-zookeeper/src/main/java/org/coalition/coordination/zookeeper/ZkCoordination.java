package org.coalition.coordination.zookeeper;

import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.apache.curator.framework.recipes.nodes.PersistentNode;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.CreateOptions;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.ZooDefs.Ids;
import org.apache.zookeeper.ZooDefs.Perms;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.apache.zookeeper.data.Stat;
import org.coalition.coordination.Allowances;
import org.coalition.coordination.Claim;
import org.coalition.coordination.Completed;
import org.coalition.coordination.Coordination;
import org.coalition.coordination.CoordinationException;
import org.coalition.coordination.CoordinationException.Kind;
import org.coalition.coordination.FederatedJob;
import org.coalition.coordination.JobRef;
import org.coalition.coordination.JobSpec;
import org.coalition.coordination.RunResult;
import org.coalition.coordination.SiteInfo;
import org.coalition.coordination.SiteLedger;
import org.coalition.coordination.SiteStatus;
import org.coalition.coordination.UtilitySums;
import org.coalition.coordination.zookeeper.ZkRecords.ClaimRecord;
import org.coalition.coordination.zookeeper.ZkRecords.DoneRecord;
import org.coalition.coordination.zookeeper.ZkRecords.FederationRecord;
import org.coalition.coordination.zookeeper.ZkRecords.ResultRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link Coordination} on ZooKeeper through Curator (layout in {@link ZkPaths}).
 *
 * <p>Fencing: a claim is a node created in one multi-operation with a check that the job's home
 * is live; its creation zxid is the token. Start, heartbeat and result go through the raw
 * ZooKeeper handle of the session that made the claim, never through Curator's retry on a new
 * session: if that session ended, they fail, so a run whose claim may have been handed to
 * another site can never write. The result is created in one multi with a check of the claim's
 * version, so it is accepted at most once and only from the current claim.
 *
 * <p>Reads of the queue come from {@link CuratorCache}s of the sites and jobs (watch driven); they may lag writes by
 * a few milliseconds, never decide a write.
 */
public final class ZkCoordination implements Coordination {
  private static final Logger LOG = LoggerFactory.getLogger(ZkCoordination.class);
  private static final int BATCH = 100;
  private static final long OWN_CLAIM_MEMORY_NANOS = TimeUnit.SECONDS.toNanos(10);

  private final CuratorFramework client;
  private final ZkPaths paths;
  private final String site;
  private final Clock clock;
  private final long epochMillis;
  private final List<ACL> jobAcl;
  private final List<ACL> ownAcl;
  private final Map<String, String> members;
  private final CuratorCache siteCache;
  private final CuratorCache jobCache;
  private final LeaderLatch latch;
  private final ExecutorService background;
  private final AtomicBoolean requeuePending = new AtomicBoolean();
  private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
  private final Map<Long, Fence> fences = new ConcurrentHashMap<>();
  private final Map<JobRef, CachedJob> jobs = new ConcurrentHashMap<>();
  private final Map<JobRef, Boolean> claimed = new ConcurrentHashMap<>();
  private final Map<JobRef, Boolean> resulted = new ConcurrentHashMap<>();
  /**
   * Jobs this handle claimed whose claim the cache has not shown yet (nanoTime of the claim):
   * without it, this site's next look at the queue would offer them again. Dropped when the
   * cache catches up, or after {@link #OWN_CLAIM_MEMORY_NANOS} at the latest.
   */
  private final Map<JobRef, Long> claimedHere = new ConcurrentHashMap<>();
  private final Map<String, SiteStatus> live = new ConcurrentHashMap<>();
  private volatile PersistentNode liveNode;
  private volatile boolean closed;

  /** A job as the cache last saw it, with its node's version (a claim checks it is still that one). */
  private record CachedJob(JobSpec job, int version) {}

  /** The session handle and claim-node version a fenced operation must use. */
  private record Fence(ZooKeeper zk, long session, int version) {}

  ZkCoordination(CuratorFramework client, ZkPaths paths, String site, Id self, Clock clock) {
    this.client = client;
    this.paths = paths;
    this.site = site;
    this.clock = clock;
    FederationRecord fed;
    try {
      if (client.checkExists().forPath(paths.root) == null) {
        throw new CoordinationException(Kind.INVALID, "no federation at " + paths.root + "; the operator creates it with ZkFederation.bootstrap");
      }
      fed = ZkRecords.read(paths.root, client.getData().forPath(paths.root), FederationRecord.class);
    } catch (CoordinationException e) {
      throw e;
    } catch (Exception e) {
      throw translate("reading federation " + paths.root, e);
    }
    if (!self.getId().equals(fed.members().get(site))) {
      throw new CoordinationException(Kind.FORBIDDEN, "site " + site + " is not a member of " + paths.root
          + " with this secret; the operator adds it by bootstrapping the federation again with the site's secret");
    }
    this.epochMillis = fed.epochMillis();
    this.members = Map.copyOf(fed.members());
    List<ACL> acl = new ArrayList<>();
    acl.add(new ACL(Perms.ALL, self));
    fed.members().forEach((member, id) -> {
      if (!member.equals(site)) {
        acl.add(new ACL(Perms.CREATE | Perms.READ, new Id("digest", id)));
      }
    });
    acl.add(new ACL(Perms.READ, Ids.ANYONE_ID_UNSAFE));
    this.jobAcl = java.util.Collections.unmodifiableList(acl);
    this.ownAcl = new OwnNodesAclProvider(self).getDefaultAcl();
    this.background = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "coalition-zk-" + site);
      t.setDaemon(true);
      return t;
    });
    // Only the live sites and the jobs are watched; ledgers, records and allowances are read when
    // needed (watching the finished-run records would cost a listing of them on every new one).
    this.siteCache = CuratorCache.build(client, paths.sites());
    this.jobCache = CuratorCache.build(client, paths.jobs());
    CountDownLatch initialized = new CountDownLatch(2);
    for (CuratorCache c : List.of(siteCache, jobCache)) {
      c.listenable().addListener(CuratorCacheListener.builder()
          .forAll((type, before, after) -> onEvent(type, before, after))
          .forInitialized(initialized::countDown)
          .build());
      c.start();
    }
    this.latch = new LeaderLatch(client, paths.leader(), site);
    client.getConnectionStateListenable().addListener((c, state) -> {
      if (state == ConnectionState.RECONNECTED || state == ConnectionState.LOST) {
        scheduleRequeue();
      }
    });
    try {
      if (!initialized.await(30, TimeUnit.SECONDS)) {
        throw new CoordinationException(Kind.UNAVAILABLE, "the federation tree at " + paths.root + " did not load within 30 s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CoordinationException(Kind.UNAVAILABLE, "interrupted while loading " + paths.root, e);
    }
  }

  @Override
  public String site() {
    return site;
  }

  // --- membership ----------------------------------------------------------------------------

  @Override
  public void join(SiteInfo info, SiteStatus status) {
    requireOwn(info.site());
    requireOwn(status.site());
    open();
    try {
      client.setData().forPath(paths.site(site), ZkRecords.write(info));
      Stat stat = client.checkExists().forPath(paths.live(site));
      long session = client.getZookeeperClient().getZooKeeper().getSessionId();
      if (stat != null && stat.getEphemeralOwner() != session) {
        // left by an earlier process of this site whose session has not expired yet
        client.delete().guaranteed().forPath(paths.live(site));
      }
      if (liveNode == null) {
        liveNode = new PersistentNode(client, CreateMode.EPHEMERAL, false, paths.live(site), ZkRecords.write(status));
        liveNode.start();
        if (!liveNode.waitForInitialCreate(30, TimeUnit.SECONDS)) {
          throw new CoordinationException(Kind.UNAVAILABLE, "could not announce site " + site + " within 30 s");
        }
        latch.start();
      } else {
        liveNode.setData(ZkRecords.write(status));
      }
    } catch (CoordinationException e) {
      throw e;
    } catch (Exception e) {
      throw translate("site " + site + " joining", e);
    }
    scheduleRequeue();
  }

  @Override
  public void updateStatus(SiteStatus status) {
    requireOwn(status.site());
    open();
    PersistentNode node = liveNode;
    if (node == null) {
      throw new CoordinationException(Kind.INVALID, "site " + site + " must join before updating its status");
    }
    try {
      node.setData(ZkRecords.write(status));
    } catch (Exception e) {
      throw translate("updating the status of " + site, e);
    }
  }

  @Override
  public Map<String, SiteStatus> liveSites() {
    return Map.copyOf(live);
  }

  @Override
  public Map<String, SiteInfo> knownSites() {
    return readAll(paths.sites(), SiteInfo.class);
  }

  /** Every child of {@code parent} read as {@code type}, by name; unreadable ones skipped with a warning. */
  private <T> Map<String, T> readAll(String parent, Class<T> type) {
    Map<String, T> out = new HashMap<>();
    try {
      for (String name : client.getChildren().forPath(parent)) {
        String path = parent + "/" + name;
        try {
          out.put(name, ZkRecords.read(path, client.getData().forPath(path), type));
        } catch (CoordinationException e) {
          LOG.warn("skipping a {}: {}", type.getSimpleName(), e.getMessage());
        }
      }
    } catch (Exception e) {
      throw translate("reading " + parent, e);
    }
    return out;
  }

  // --- queue ---------------------------------------------------------------------------------

  @Override
  public void publish(List<JobSpec> batch) {
    CoordinationException.requirePublishable(site, batch);
    open();
    List<CuratorOp> ops = new ArrayList<>();
    try {
      for (JobSpec job : batch) {
        ops.add(client.transactionOp().create().withACL(jobAcl).forPath(paths.job(job.ref()), ZkRecords.write(job)));
      }
      client.transaction().forOperations(ops);
    } catch (KeeperException.NodeExistsException e) {
      throw new CoordinationException(Kind.INVALID, "job " + jobAt(e, batch) + " is already published; none of the batch was published");
    } catch (Exception e) {
      throw translate("publishing " + batch.size() + " job(s) from " + batch.get(0).ref(), e);
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
    JobRef ref = new JobRef(site, jobId);
    try {
      // A job with a claim (or a result) has children, and ZooKeeper refuses to delete it:
      // that is what makes a withdrawal and a claim exclusive.
      client.delete().forPath(paths.job(ref));
      return true;
    } catch (KeeperException.NotEmptyException | KeeperException.NoNodeException e) {
      return false;
    } catch (Exception e) {
      throw translate("withdrawing " + ref, e);
    }
  }

  @Override
  public List<JobSpec> queue() {
    List<JobSpec> out = new ArrayList<>();
    long now = System.nanoTime();
    claimedHere.values().removeIf(at -> now - at > OWN_CLAIM_MEMORY_NANOS);
    for (Map.Entry<JobRef, CachedJob> e : jobs.entrySet()) {
      JobRef ref = e.getKey();
      if (live.containsKey(ref.home()) && !claimed.containsKey(ref) && !resulted.containsKey(ref) && !claimedHere.containsKey(ref)) {
        out.add(e.getValue().job());
      }
    }
    out.sort(JobSpec.OLDEST_FIRST);
    return out;
  }

  @Override
  public List<FederatedJob> jobs(String home) {
    List<FederatedJob> out = new ArrayList<>();
    for (Map.Entry<JobRef, CachedJob> e : jobs.entrySet()) {
      JobRef ref = e.getKey();
      if (!ref.home().equals(home)) {
        continue;
      }
      String executor = "";
      boolean finished = false;
      Optional<ChildData> result = jobCache.get(paths.result(ref));
      Optional<ChildData> claim = jobCache.get(paths.claim(ref));
      try {
        if (result.isPresent()) {
          executor = ZkRecords.read(result.get().getPath(), result.get().getData(), ResultRecord.class).executor();
          finished = true;
        } else if (claim.isPresent()) {
          ClaimRecord c = ZkRecords.read(claim.get().getPath(), claim.get().getData(), ClaimRecord.class);
          executor = c.released() ? "" : c.executor();
        }
      } catch (CoordinationException ex) {
        LOG.warn("job {}: unreadable claim or result, shown as queued: {}", ref, ex.getMessage());
      }
      out.add(new FederatedJob(e.getValue().job(), executor, finished));
    }
    out.sort(Comparator.comparing(FederatedJob::job, JobSpec.OLDEST_FIRST));
    return out;
  }

  @Override
  public void watchQueue(Runnable listener) {
    listeners.add(listener);
  }

  // --- claims --------------------------------------------------------------------------------

  /**
   * One multi: the home is live, the job is the version the cache holds (so the claim carries
   * exactly that spec, with no read), and the claim node is created with its stat returned (its
   * creation zxid is the token). Only when the outcome is unknown (the connection broke) or the
   * cache has not seen the job yet does it read.
   */
  @Override
  public Optional<Claim> claim(JobRef ref) {
    open();
    ZooKeeper zk = handle();
    long session = zk.getSessionId();
    String claimPath = paths.claim(ref);
    CachedJob cached = jobs.get(ref);
    byte[] claimData = ZkRecords.write(ClaimRecord.fresh(site, session));
    try {
      for (int attempt = 0; ; attempt++) {
        List<Op> ops = new ArrayList<>();
        ops.add(Op.check(paths.live(ref.home()), -1));
        if (cached != null) {
          ops.add(Op.check(paths.job(ref), cached.version()));
        }
        ops.add(Op.create(claimPath, claimData, CreateOptions.newBuilder(claimAcl(ref.home()), CreateMode.PERSISTENT).build()));
        try {
          List<OpResult> done = fenced(zk, () -> zk.multi(ops));
          Stat stat = ((OpResult.CreateResult) done.get(done.size() - 1)).getStat();
          if (cached != null && stat != null) {
            return Optional.of(held(cached.job(), zk, session, stat));
          }
          break; // the job was not cached yet: read it with the claim below
        } catch (KeeperException.BadVersionException e) {
          if (attempt > 0) {
            return Optional.empty(); // the job keeps changing (requeued): leave it to the next wake-up
          }
          // requeued since the cache saw it (the event may still be on its way): read it once, then again
          Stat jobStat = new Stat();
          byte[] data = fenced(zk, () -> zk.getData(paths.job(ref), false, jobStat));
          cached = new CachedJob(ZkRecords.read(paths.job(ref), data, JobSpec.class), jobStat.getVersion());
        }
      }
    } catch (KeeperException.NoNodeException | KeeperException.NodeExistsException e) {
      return Optional.empty(); // withdrawn, home gone, or claimed by someone else
    } catch (CoordinationException e) {
      if (e.kind() != Kind.UNAVAILABLE) {
        throw e;
      }
      // fall through: the multi may have been applied before the connection broke
    } catch (KeeperException e) {
      throw translate("claiming " + ref, e);
    }
    try {
      Stat stat = new Stat();
      byte[] data = fenced(zk, () -> zk.getData(claimPath, false, stat));
      ClaimRecord record = ZkRecords.read(claimPath, data, ClaimRecord.class);
      if (!record.executor().equals(site) || record.session() != session) {
        return Optional.empty();
      }
      JobSpec job = ZkRecords.read(paths.job(ref), fenced(zk, () -> zk.getData(paths.job(ref), false, null)), JobSpec.class);
      return Optional.of(held(job, zk, session, stat));
    } catch (KeeperException.NoNodeException e) {
      return Optional.empty();
    } catch (KeeperException e) {
      throw translate("reading the claim on " + ref, e);
    }
  }

  private Claim held(JobSpec job, ZooKeeper zk, long session, Stat claimStat) {
    fences.put(claimStat.getCzxid(), new Fence(zk, session, claimStat.getVersion()));
    if (!claimed.containsKey(job.ref())) {
      claimedHere.put(job.ref(), System.nanoTime());
    }
    return new Claim(job, site, claimStat.getCzxid());
  }

  /**
   * A fenced check, not a write: the claim must still be this session's. The start time travels
   * in the result ({@link RunResult#start()}); ZooKeeper's session already proves the run's
   * executor alive, so neither start nor heartbeat costs a write.
   */
  @Override
  public void start(Claim claim, double startTime) {
    checkHeld(claim);
  }

  @Override
  public void heartbeat(Claim claim) {
    checkHeld(claim);
  }

  private void checkHeld(Claim claim) {
    Fence fence = fence(claim);
    String path = paths.claim(claim.ref());
    try {
      Stat stat = new Stat();
      byte[] data = fenced(fence.zk(), () -> fence.zk().getData(path, false, stat));
      ClaimRecord record = ZkRecords.read(path, data, ClaimRecord.class);
      if (stat.getCzxid() != claim.token() || record.session() != fence.session() || record.released()) {
        throw CoordinationException.stale(claim, "the job's claim is now " + stat.getCzxid());
      }
    } catch (KeeperException.NoNodeException e) {
      throw CoordinationException.stale(claim, "the job has no claim any more");
    } catch (CoordinationException e) {
      throw staleIfSessionEnded(claim, fence, e);
    } catch (KeeperException e) {
      throw translate("checking the claim on " + claim.ref(), e);
    }
  }

  @Override
  public boolean holds(Claim claim) {
    Fence fence = fences.get(claim.token());
    if (fence == null || !fence.zk().getState().isAlive()) {
      return false;
    }
    String path = paths.claim(claim.ref());
    try {
      Stat stat = new Stat();
      byte[] data = fenced(fence.zk(), () -> fence.zk().getData(path, false, stat));
      ClaimRecord record = ZkRecords.read(path, data, ClaimRecord.class);
      return stat.getCzxid() == claim.token() && record.session() == fence.session() && !record.released();
    } catch (KeeperException.NoNodeException e) {
      return false;
    } catch (CoordinationException e) {
      if (e.kind() == Kind.UNAVAILABLE) {
        return false;
      }
      throw e;
    } catch (KeeperException e) {
      throw translate("checking the claim on " + claim.ref(), e);
    }
  }

  @Override
  public void finish(Claim claim, RunResult result) {
    JobRef ref = claim.ref();
    Fence fence = fences.get(claim.token());
    if (fence == null) {
      if (acceptedWith(null, ref, claim.token())) {
        return; // a repeated call: already accepted
      }
      throw CoordinationException.stale(claim, "it was not made by this handle (or it was given up)");
    }
    List<Op> ops = List.of(
        Op.check(paths.claim(ref), fence.version()),
        Op.create(paths.result(ref), ZkRecords.write(new ResultRecord(site, claim.token(), result)), ownAcl, CreateMode.PERSISTENT),
        Op.create(paths.doneRecord(site, ref, claim.token()), ZkRecords.write(DoneRecord.of(claim.job(), result)),
            ownAcl, CreateMode.PERSISTENT));
    try {
      fenced(fence.zk(), () -> fence.zk().multi(ops));
      fences.remove(claim.token());
    } catch (KeeperException.NodeExistsException e) {
      if (!acceptedWith(fence.zk(), ref, claim.token())) {
        throw CoordinationException.stale(claim, "the job already has a result from another run");
      }
      fences.remove(claim.token());
    } catch (KeeperException.BadVersionException | KeeperException.NoNodeException e) {
      throw CoordinationException.stale(claim, "the claim node changed or is gone");
    } catch (CoordinationException e) {
      if (e.kind() == Kind.UNAVAILABLE && acceptedWith(null, ref, claim.token())) {
        fences.remove(claim.token());
        return; // applied before the connection broke
      }
      throw staleIfSessionEnded(claim, fence, e);
    } catch (KeeperException e) {
      throw translate("finishing " + ref, e);
    }
  }

  @Override
  public void release(Claim claim) {
    Fence fence = fence(claim);
    String path = paths.claim(claim.ref());
    byte[] data = ZkRecords.write(new ClaimRecord(site, fence.session(), -1, true));
    try {
      fenced(fence.zk(), () -> fence.zk().setData(path, data, fence.version()));
      fences.remove(claim.token());
    } catch (KeeperException.BadVersionException | KeeperException.NoNodeException e) {
      throw CoordinationException.stale(claim, "the claim node changed or is gone");
    } catch (CoordinationException e) {
      throw staleIfSessionEnded(claim, fence, e);
    } catch (KeeperException e) {
      throw translate("releasing " + claim.ref(), e);
    }
  }

  // --- home side -----------------------------------------------------------------------------

  @Override
  public int requeueLost() {
    open();
    int n = 0;
    try {
      for (String jobId : client.getChildren().forPath(paths.jobsOf(site))) {
        JobRef ref = new JobRef(site, jobId);
        if (requeueIfLost(ref)) {
          n++;
        }
      }
    } catch (CoordinationException e) {
      throw e;
    } catch (Exception e) {
      throw translate("requeueing lost runs of " + site, e);
    }
    return n;
  }

  private boolean requeueIfLost(JobRef ref) throws Exception {
    Stat claimStat = new Stat();
    byte[] claimData;
    try {
      claimData = client.getData().storingStatIn(claimStat).forPath(paths.claim(ref));
    } catch (KeeperException.NoNodeException e) {
      return false;
    }
    if (client.checkExists().forPath(paths.result(ref)) != null) {
      return false;
    }
    ClaimRecord claim;
    try {
      claim = ZkRecords.read(paths.claim(ref), claimData, ClaimRecord.class);
    } catch (CoordinationException e) {
      LOG.warn("requeueing {} whose claim is unreadable: {}", ref, e.getMessage());
      claim = new ClaimRecord("?", -1, -1, true);
    }
    if (!claim.released()) {
      Stat liveStat = client.checkExists().forPath(paths.live(claim.executor()));
      if (liveStat != null && liveStat.getEphemeralOwner() == claim.session()) {
        return false; // its executor's session is alive: the run goes on
      }
    }
    Stat jobStat = new Stat();
    JobSpec job = ZkRecords.read(paths.job(ref), client.getData().storingStatIn(jobStat).forPath(paths.job(ref)), JobSpec.class);
    try {
      client.transaction().forOperations(
          client.transactionOp().delete().withVersion(claimStat.getVersion()).forPath(paths.claim(ref)),
          client.transactionOp().setData().withVersion(jobStat.getVersion()).forPath(paths.job(ref), ZkRecords.write(job.releasedAt(now()))));
    } catch (KeeperException.BadVersionException | KeeperException.NoNodeException | KeeperException.NotEmptyException e) {
      return false; // changed meanwhile (or a result arrived under the claim): the next sweep looks again
    }
    LOG.info("requeued {}: {} (claim {}) {}", ref, claim.executor(), claimStat.getCzxid(),
        claim.released() ? "gave it up" : "lost its session");
    return true;
  }

  @Override
  public List<Completed> results() {
    List<Completed> out = new ArrayList<>();
    for (JobRef ref : resulted.keySet()) {
      if (!ref.home().equals(site)) {
        continue;
      }
      Optional<ChildData> node = jobCache.get(paths.result(ref));
      CachedJob cached = jobs.get(ref);
      if (node.isEmpty() || cached == null) {
        continue; // acknowledged meanwhile, or the cache has not caught up
      }
      try {
        ResultRecord r = ZkRecords.read(node.get().getPath(), node.get().getData(), ResultRecord.class);
        out.add(new Completed(cached.job(), r.executor(), r.token(), r.run()));
      } catch (CoordinationException e) {
        LOG.warn("skipping an unreadable result: {}", e.getMessage());
      }
    }
    return out;
  }

  @Override
  public int acknowledge(List<Completed> done) {
    open();
    for (Completed c : done) {
      requireOwn(c.job().home());
    }
    int folded = 0;
    for (int from = 0; from < done.size(); from += BATCH) {
      folded += acknowledgeBatch(done.subList(from, Math.min(done.size(), from + BATCH)));
    }
    return folded;
  }

  private int acknowledgeBatch(List<Completed> batch) {
    String ledgerPath = paths.ledger(site);
    boolean optimistic = true;
    while (true) {
      try {
        List<Completed> pending = new ArrayList<>();
        if (optimistic) {
          pending.addAll(batch); // results() just read them; the multi fails if one is gone
        } else {
          for (Completed c : batch) {
            Stat s = client.checkExists().forPath(paths.result(c.job().ref()));
            if (s != null) {
              ResultRecord r = ZkRecords.read(paths.result(c.job().ref()),
                  client.getData().forPath(paths.result(c.job().ref())), ResultRecord.class);
              if (r.token() == c.token()) {
                pending.add(c);
              }
            }
          }
        }
        if (pending.isEmpty()) {
          return 0;
        }
        Stat stat = new Stat();
        SiteLedger ledger = ZkRecords.read(ledgerPath, client.getData().storingStatIn(stat).forPath(ledgerPath), SiteLedger.class);
        List<CuratorOp> ops = new ArrayList<>();
        for (Completed c : pending) {
          ledger = ledger.submitted(UtilitySums.of(c.job().release(), c.result(), c.job().cores()));
          JobRef ref = c.job().ref();
          ops.add(client.transactionOp().delete().forPath(paths.result(ref)));
          ops.add(client.transactionOp().delete().forPath(paths.claim(ref)));
          ops.add(client.transactionOp().delete().forPath(paths.job(ref)));
        }
        ops.add(0, client.transactionOp().setData().withVersion(stat.getVersion()).forPath(ledgerPath, ZkRecords.write(ledger)));
        client.transaction().forOperations(ops);
        return pending.size();
      } catch (KeeperException.BadVersionException | KeeperException.NoNodeException e) {
        // the ledger moved (compaction) or a result was acknowledged meanwhile: check each, then again
        optimistic = false;
      } catch (CoordinationException e) {
        throw e;
      } catch (Exception e) {
        throw translate("acknowledging results of " + site, e);
      }
    }
  }

  // --- ledger --------------------------------------------------------------------------------

  @Override
  public int compact() {
    open();
    String ledgerPath = paths.ledger(site);
    int folded = 0;
    try {
      List<String> names = new ArrayList<>(client.getChildren().forPath(paths.doneOf(site)));
      names.sort(null);
      for (int from = 0; from < names.size(); from += BATCH) {
        List<String> batch = names.subList(from, Math.min(names.size(), from + BATCH));
        while (true) {
          Stat stat = new Stat();
          SiteLedger ledger = ZkRecords.read(ledgerPath, client.getData().storingStatIn(stat).forPath(ledgerPath), SiteLedger.class);
          List<CuratorOp> ops = new ArrayList<>();
          for (String name : batch) {
            String path = paths.doneOf(site) + "/" + name;
            byte[] data;
            try {
              data = client.getData().forPath(path);
            } catch (KeeperException.NoNodeException e) {
              continue;
            }
            DoneRecord d = ZkRecords.read(path, data, DoneRecord.class);
            ledger = ledger.executed(UtilitySums.of(d.release(), d.run(), d.cores()));
            ops.add(client.transactionOp().delete().forPath(path));
          }
          if (ops.isEmpty()) {
            break;
          }
          ops.add(0, client.transactionOp().setData().withVersion(stat.getVersion()).forPath(ledgerPath, ZkRecords.write(ledger)));
          try {
            client.transaction().forOperations(ops);
            folded += ops.size() - 1;
            break;
          } catch (KeeperException.BadVersionException | KeeperException.NoNodeException e) {
            // the ledger moved (results acknowledged) or a record went: read again
          }
        }
      }
    } catch (CoordinationException e) {
      throw e;
    } catch (Exception e) {
      throw translate("compacting the ledger of " + site, e);
    }
    return folded;
  }

  @Override
  public Map<String, SiteLedger> ledgers() {
    return readAll(paths.ledgers(), SiteLedger.class);
  }

  // --- leadership ----------------------------------------------------------------------------

  @Override
  public boolean isLeader() {
    return !closed && liveNode != null && latch.hasLeadership();
  }

  @Override
  public void publishAllowances(Allowances allowances) {
    requireOwn(allowances.leader());
    if (!isLeader()) {
      throw new CoordinationException(Kind.FORBIDDEN, "site " + site + " is not the leader; only the leader publishes allowances");
    }
    try {
      client.setData().forPath(paths.allowances(site), ZkRecords.write(allowances));
    } catch (Exception e) {
      throw translate("publishing allowances", e);
    }
  }

  @Override
  public Allowances allowances() {
    try {
      String leader = latch.getLeader().getId();
      if (leader.isEmpty()) {
        return Allowances.NONE;
      }
      String path = paths.allowances(JobSpec.requireId("leader", leader));
      return ZkRecords.read(path, client.getData().forPath(path), Allowances.class);
    } catch (CoordinationException e) {
      throw e;
    } catch (Exception e) {
      throw translate("reading allowances", e);
    }
  }

  @Override
  public double now() {
    return (clock.millis() - epochMillis) / 1000.0;
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    background.shutdownNow();
    try {
      if (liveNode != null) {
        latch.close(LeaderLatch.CloseMode.SILENT);
        liveNode.close();
      }
    } catch (Exception e) {
      LOG.debug("closing {}: {}", site, e.toString());
    }
    siteCache.close();
    jobCache.close();
    client.close();
  }

  @Override
  public boolean connected() {
    return client.getZookeeperClient().isConnected();
  }

  /**
   * This handle's current ZooKeeper session, for fault injection that expires it on the servers
   * (tests, benchmarks); the client itself is never handed out.
   */
  public Session session() throws Exception {
    var zk = client.getZookeeperClient().getZooKeeper();
    return new Session(zk.getSessionId(), zk.getSessionPasswd());
  }

  /** A ZooKeeper session's id and password: what another connection needs to attach to it. */
  public record Session(long id, byte[] password) {}

  // --- internals -----------------------------------------------------------------------------

  private void onEvent(CuratorCacheListener.Type type, ChildData before, ChildData after) {
    ChildData node = after != null ? after : before;
    String[] seg = paths.relative(node.getPath());
    boolean gone = type == CuratorCacheListener.Type.NODE_DELETED;
    boolean queueMayChange = false;
    if (seg.length == 3 && seg[0].equals("sites") && seg[2].equals(ZkPaths.LIVE)) {
      if (gone) {
        live.remove(seg[1]);
      } else {
        try {
          live.put(seg[1], ZkRecords.read(node.getPath(), node.getData(), SiteStatus.class));
        } catch (CoordinationException | IllegalArgumentException e) {
          LOG.warn("ignoring a live node: {}", e.getMessage());
        }
      }
      queueMayChange = true;
      scheduleRequeue();
    } else if (seg.length == 3 && seg[0].equals("jobs")) {
      JobRef ref = ref(seg);
      if (gone) {
        jobs.remove(ref);
      } else {
        try {
          JobSpec job = ZkRecords.read(node.getPath(), node.getData(), JobSpec.class);
          if (job.ref().equals(ref)) {
            jobs.put(ref, new CachedJob(job, node.getStat().getVersion()));
          } else {
            LOG.warn("ignoring {}: it names job {}", node.getPath(), job.ref());
          }
        } catch (CoordinationException e) {
          LOG.warn("ignoring a job: {}", e.getMessage());
        }
      }
      queueMayChange = true;
    } else if ((seg.length == 4 || seg.length == 5) && seg[0].equals("jobs") && seg[3].equals(ZkPaths.CLAIM)) {
      JobRef ref = ref(seg);
      Map<JobRef, Boolean> set = seg.length == 4 ? claimed : seg[4].equals(ZkPaths.RESULT) ? resulted : null;
      if (set != null) {
        claimedHere.remove(ref);
        if (gone) {
          set.remove(ref);
        } else {
          set.put(ref, Boolean.TRUE);
        }
        queueMayChange = true;
        if (seg.length == 4 && ref.home().equals(site) && !gone) {
          // A claim given up (released) returns to the queue through its home. Not only on a
          // change: a claim released right after it was made can reach this cache already
          // released, as a creation (seen in CI). requeueIfLost leaves a claim in use alone.
          requeueLater(ref);
        }
      }
    }
    if (queueMayChange) {
      for (Runnable l : listeners) {
        try {
          l.run();
        } catch (RuntimeException e) {
          LOG.warn("a queue listener failed", e);
        }
      }
    }
  }

  private static JobRef ref(String[] seg) {
    try {
      return new JobRef(seg[1], seg[2]);
    } catch (IllegalArgumentException e) {
      return new JobRef("invalid", "invalid");
    }
  }

  /** Sweeps this site's claimed jobs for lost runs on the background thread, at most one sweep queued. */
  private void scheduleRequeue() {
    if (closed || liveNode == null || !requeuePending.compareAndSet(false, true)) {
      return;
    }
    if (!inBackground(() -> {
      requeuePending.set(false);
      requeueLost();
    }, "requeue sweep of " + site)) {
      requeuePending.set(false);
    }
  }

  /** Looks at one of this site's claimed jobs on the background thread (a claim was given up). */
  private void requeueLater(JobRef ref) {
    if (!closed) {
      inBackground(() -> requeueIfLost(ref), "requeueing " + ref);
    }
  }

  /** Runs {@code task} on the background thread; false if the handle is closing. A failure is logged: the next event retries. */
  private boolean inBackground(ZkTask task, String what) {
    try {
      background.execute(() -> {
        try {
          task.run();
        } catch (CoordinationException | KeeperException e) {
          LOG.debug("{} failed, the next event retries: {}", what, e.toString());
        } catch (Exception e) {
          LOG.warn("{} failed", what, e);
        }
      });
      return true;
    } catch (RejectedExecutionException e) {
      return false;
    }
  }

  @FunctionalInterface
  private interface ZkTask {
    void run() throws Exception;
  }

  private Fence fence(Claim claim) {
    Fence fence = fences.get(claim.token());
    if (fence == null) {
      throw CoordinationException.stale(claim, "it was not made by this handle (or it was already finished or given up)");
    }
    return fence;
  }

  /** A fenced operation that failed because its session ended: the claim is lost with it. */
  private static CoordinationException staleIfSessionEnded(Claim claim, Fence fence, CoordinationException e) {
    if (e.kind() == Kind.UNAVAILABLE && !fence.zk().getState().isAlive()) {
      return CoordinationException.stale(claim, "the session that made it (0x" + Long.toHexString(fence.session()) + ") has ended");
    }
    return e;
  }

  private boolean acceptedWith(ZooKeeper zk, JobRef ref, long token) {
    try {
      byte[] data = zk != null ? zk.getData(paths.result(ref), false, null) : client.getData().forPath(paths.result(ref));
      return ZkRecords.read(paths.result(ref), data, ResultRecord.class).token() == token;
    } catch (KeeperException.NoNodeException e) {
      return false;
    } catch (Exception e) {
      throw translate("reading the result of " + ref, e);
    }
  }

  private ZooKeeper handle() {
    try {
      return client.getZookeeperClient().getZooKeeper();
    } catch (Exception e) {
      throw translate("getting a ZooKeeper session", e);
    }
  }

  /**
   * A claim node: all rights to the claimer; the home may delete its result (once acknowledged)
   * and no one else may write it or add a result under it.
   */
  private List<ACL> claimAcl(String home) {
    List<ACL> acl = new ArrayList<>(ownAcl);
    String homeId = members.get(home);
    if (homeId != null && !home.equals(site)) {
      acl.add(new ACL(Perms.DELETE | Perms.READ, new Id("digest", homeId)));
    }
    return acl;
  }

  /** One operation on the raw handle of a session: retried across connection loss, never across sessions. */
  private <T> T fenced(ZooKeeper zk, ZkCall<T> call) throws KeeperException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (true) {
      try {
        return call.run();
      } catch (KeeperException.ConnectionLossException | KeeperException.OperationTimeoutException e) {
        if (!zk.getState().isAlive() || System.nanoTime() > deadline) {
          throw new CoordinationException(Kind.UNAVAILABLE, "session 0x" + Long.toHexString(zk.getSessionId()) + " lost: " + e.getMessage(), e);
        }
        sleep(50);
      } catch (KeeperException.SessionExpiredException | KeeperException.SessionMovedException e) {
        throw new CoordinationException(Kind.UNAVAILABLE, "session 0x" + Long.toHexString(zk.getSessionId()) + " ended: " + e.getMessage(), e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new CoordinationException(Kind.UNAVAILABLE, "interrupted", e);
      }
    }
  }

  @FunctionalInterface
  private interface ZkCall<T> {
    T run() throws KeeperException, InterruptedException;
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CoordinationException(Kind.UNAVAILABLE, "interrupted", e);
    }
  }

  static CoordinationException translate(String what, Exception e) {
    if (e instanceof CoordinationException ce) {
      return ce;
    }
    if (e instanceof InterruptedException) {
      Thread.currentThread().interrupt();
      return new CoordinationException(Kind.UNAVAILABLE, what + ": interrupted", e);
    }
    if (e instanceof KeeperException ke) {
      Kind kind = switch (ke.code()) {
        case CONNECTIONLOSS, SESSIONEXPIRED, SESSIONMOVED, OPERATIONTIMEOUT -> Kind.UNAVAILABLE;
        case NOAUTH, AUTHFAILED -> Kind.FORBIDDEN;
        default -> Kind.INTERNAL;
      };
      return new CoordinationException(kind, what + ": " + ke.getMessage(), e);
    }
    return new CoordinationException(Kind.INTERNAL, what + ": " + e, e);
  }

  private void requireOwn(String owner) {
    CoordinationException.requireOwn(site, owner);
  }

  private void open() {
    CoordinationException.requireOpen(site, closed);
  }
}
