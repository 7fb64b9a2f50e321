package org.coalition.coordination.zookeeper;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.curator.framework.recipes.cache.CuratorCacheStorage;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.coalition.coordination.Completed;
import org.coalition.coordination.CoordinationException;
import org.coalition.coordination.CoordinationException.Kind;
import org.coalition.coordination.FederatedJob;
import org.coalition.coordination.JobRef;
import org.coalition.coordination.JobSpec;
import org.coalition.coordination.SiteStatus;
import org.coalition.coordination.zookeeper.ZkRecords.ClaimRecord;
import org.coalition.coordination.zookeeper.ZkRecords.ResultRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The federation queue as this site sees it: watch-driven caches of the live sites (a
 * {@link CuratorCache}) and of the jobs with their claims and results (a {@link JobTree}, which
 * reads other homes' claims and results only when asked). Reads come from here; they may lag
 * writes by a few milliseconds and never decide a write. Every change that may alter the queue
 * wakes the listeners; a site coming or going, or one of this site's claims appearing, asks for
 * a lost-run sweep.
 */
final class ZkQueueView implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ZkQueueView.class);
  private static final long OWN_CLAIM_MEMORY_NANOS = TimeUnit.SECONDS.toNanos(10);

  /** A job as the cache last saw it, with its node's version (a claim checks it is still that one). */
  record CachedJob(JobSpec job, int version) {}

  private final ZkSite zk;
  private final Runnable sweep;
  private final Consumer<JobRef> recheck;
  private final BiConsumer<JobRef, String> refuse;
  private final CuratorCache siteCache;
  private final JobTree jobTree;
  private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
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
  /** When each live node was made (its czxid): the server assigns it, so no member can make itself older. */
  private final Map<String, Long> liveSince = new ConcurrentHashMap<>();

  /**
   * {@code sweep} looks for this site's lost runs; {@code recheck} looks at one of its claimed
   * jobs; {@code refuse} puts one of its jobs whose result cannot be read back in the queue.
   */
  ZkQueueView(ZkSite zk, Runnable sweep, Consumer<JobRef> recheck, BiConsumer<JobRef, String> refuse) {
    this.zk = zk;
    this.sweep = sweep;
    this.recheck = recheck;
    this.refuse = refuse;
    // Only the live sites and the jobs are watched; ledgers, records and allowances are read when
    // needed (watching the finished-run records would cost a listing of them on every new one).
    // the listener parses each node as it comes; the cache keeps no node's data (a member's bulk
    // under its own site node would otherwise be held raw in every daemon)
    this.siteCache = CuratorCache.builder(zk.client, zk.paths.sites()).withStorage(CuratorCacheStorage.dataNotCached()).build();
    this.jobTree = new JobTree(zk.client, zk.paths, zk.site, this::onEvent);
  }

  /** Starts both caches and waits until they hold the tree. */
  void start() {
    CountDownLatch initialized = new CountDownLatch(1);
    siteCache.listenable().addListener(CuratorCacheListener.builder().forAll(this::onEvent).forInitialized(initialized::countDown).build());
    siteCache.start();
    try {
      if (!jobTree.start(30) || !initialized.await(30, TimeUnit.SECONDS)) {
        throw new CoordinationException(Kind.UNAVAILABLE, "the federation tree at " + zk.paths.root + " did not load within 30 s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CoordinationException(Kind.UNAVAILABLE, "interrupted while loading " + zk.paths.root, e);
    }
  }

  void watch(Runnable listener) {
    listeners.add(listener);
  }

  Map<String, SiteStatus> live() {
    return Map.copyOf(live);
  }

  /**
   * The federation's leader as this cache sees it: the live site whose live node is the oldest
   * (smallest creation zxid), or empty while no site is live. Sites whose caches agree agree on
   * the leader; while one lags, two may briefly disagree, as with any lease.
   */
  Optional<String> leader() {
    return liveSince.entrySet().stream().min(Map.Entry.comparingByValue()).map(Map.Entry::getKey);
  }

  Optional<CachedJob> cached(JobRef ref) {
    return Optional.ofNullable(jobs.get(ref));
  }

  /** Remembers that this handle claimed {@code ref}, until the cache shows the claim. */
  void claimedHere(JobRef ref) {
    if (!claimed.containsKey(ref)) {
      claimedHere.put(ref, System.nanoTime());
    }
  }

  /** Jobs of live homes with no claim and no result, oldest first. */
  List<JobSpec> queue() {
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

  /** {@code home}'s jobs with who runs or ran them, oldest first. */
  List<FederatedJob> jobs(String home) {
    List<FederatedJob> out = new ArrayList<>();
    for (Map.Entry<JobRef, CachedJob> e : jobs.entrySet()) {
      JobRef ref = e.getKey();
      if (!ref.home().equals(home)) {
        continue;
      }
      String executor = "";
      boolean finished = false;
      Optional<ChildData> result = withData(zk.paths.result(ref));
      Optional<ChildData> claim = withData(zk.paths.claim(ref));
      try {
        if (result.isPresent()) {
          executor = ZkRecords.read(result.get().getPath(), result.get().getData(), ResultRecord.class).executor();
          finished = true;
        } else if (claim.isPresent()) {
          ClaimRecord c = ZkRecords.read(claim.get().getPath(), claim.get().getData(), ClaimRecord.class);
          executor = c.released() ? "" : c.executor();
        }
      } catch (CoordinationException ex) {
        // the same node and reason as results() and the home's sweep report it: counted once
        zk.peerRecords.refuse(result.isPresent() ? "ResultRecord" : "ClaimRecord", (result.isPresent() ? result : claim).get().getPath(),
            ex.getMessage());
      }
      out.add(new FederatedJob(e.getValue().job(), executor, finished));
    }
    out.sort(Comparator.comparing(FederatedJob::job, JobSpec.OLDEST_FIRST));
    return out;
  }

  /** Results of this site's jobs waiting for it; an unreadable one is refused (its job is queued again). */
  List<Completed> results() {
    List<Completed> out = new ArrayList<>();
    for (JobRef ref : resulted.keySet()) {
      if (!ref.home().equals(zk.site)) {
        continue;
      }
      Optional<ChildData> node = jobTree.get(zk.paths.result(ref));
      Optional<ChildData> claim = jobTree.get(zk.paths.claim(ref));
      CachedJob cached = jobs.get(ref);
      if (node.isEmpty() || claim.isEmpty() || cached == null) {
        continue; // acknowledged meanwhile, or the cache has not caught up
      }
      String path = node.get().getPath();
      try {
        ResultRecord r = ZkRecords.read(path, node.get().getData(), ResultRecord.class);
        Stat claimStat = claim.get().getStat();
        Stat resultStat = node.get().getStat();
        // who ran it is who made the claim, as the servers checked it (only the claimer may add
        // the result), never the result's word; and the result is that claim's
        String why = mismatch(ref, r, claimStat.getCzxid());
        if (why != null) {
          // the tree may hold a newer result beside an older claim (events missed while its watch was gone, under faults:
          // an honest result was refused so, and its job run twice, in CI's chaos run): judge on both as they are now
          claimStat = zk.client.checkExists().forPath(zk.paths.claim(ref));
          resultStat = new Stat();
          byte[] data = claimStat == null ? null : zk.client.getData().storingStatIn(resultStat).forPath(path);
          Stat after = zk.client.checkExists().forPath(zk.paths.claim(ref));
          if (claimStat == null || after == null || after.getCzxid() != claimStat.getCzxid()) {
            continue; // the claim went or changed meanwhile: the next round looks again
          }
          r = ZkRecords.read(path, data, ResultRecord.class);
          why = mismatch(ref, r, claimStat.getCzxid());
        }
        if (why != null) {
          zk.peerRecords.refuse("ResultRecord", path, why);
          refuse.accept(ref, "result refused: " + why);
          continue;
        }
        zk.peerRecords.accepted(path);
        // the servers' creation stamps, not the executor's word: when the claim and the result were made
        out.add(new Completed(cached.job(), r.executor(), r.token(), r.run(), zk.federationSeconds(claimStat.getCtime()),
            zk.federationSeconds(resultStat.getCtime())));
      } catch (CoordinationException e) {
        if (e.kind() == Kind.UNAVAILABLE) {
          throw e;
        }
        // never folded, never retried as it is: the job goes back to the queue
        zk.peerRecords.refuse("ResultRecord", path, e.getMessage());
        refuse.accept(ref, "unreadable result: " + e.getMessage());
      } catch (KeeperException.NoNodeException e) {
        continue; // the claim went since the cache saw it (acknowledged, requeued): nothing to take
      } catch (Exception e) {
        throw ZkSite.translate("reading who made the claim on " + ref, e);
      }
    }
    return out;
  }

  /** Why result {@code r} is not the work of the claim with creation zxid {@code czxid} on {@code ref}, or null when it is. */
  private String mismatch(JobRef ref, ResultRecord r, long czxid) throws Exception {
    Optional<String> claimer = zk.claimAuthors.of(ref, czxid);
    if (claimer.isEmpty()) {
      return "its claim's ACL is not a member's claim";
    }
    if (!claimer.get().equals(r.executor())) {
      return "it names executor " + r.executor() + " but " + claimer.get() + " made the claim";
    }
    return r.token() != czxid ? "it names claim " + r.token() + ", not " + czxid : null;
  }

  /**
   * A claim's or result's node with its data: from the tree for this site's jobs, read from
   * ZooKeeper for another home's (the tree keeps only whether those exist).
   */
  private Optional<ChildData> withData(String path) {
    Optional<ChildData> known = jobTree.get(path);
    if (known.isEmpty() || known.get().getData() != null) {
      return known;
    }
    try {
      Stat stat = new Stat();
      byte[] data = zk.client.getData().storingStatIn(stat).forPath(path);
      return Optional.of(new ChildData(path, stat, data));
    } catch (KeeperException.NoNodeException e) {
      return Optional.empty();
    } catch (Exception e) {
      throw ZkSite.translate("reading " + path, e);
    }
  }

  private void onEvent(CuratorCacheListener.Type type, ChildData before, ChildData after) {
    ChildData node = after != null ? after : before;
    String[] seg = zk.paths.relative(node.getPath());
    boolean gone = type == CuratorCacheListener.Type.NODE_DELETED;
    boolean queueMayChange = false;
    if (seg.length == 3 && seg[0].equals("sites") && seg[2].equals(ZkPaths.LIVE)) {
      if (gone) {
        live.remove(seg[1]);
        liveSince.remove(seg[1]);
      } else {
        try {
          live.put(seg[1], liveStatus(seg[1], node));
          liveSince.put(seg[1], node.getStat().getCzxid());
          zk.peerRecords.accepted(node.getPath());
        } catch (CoordinationException | IllegalArgumentException e) {
          // a site whose live node cannot be believed is not live: it neither leads nor counts
          live.remove(seg[1]);
          liveSince.remove(seg[1]);
          zk.peerRecords.refuse("SiteStatus", node.getPath(), e.getMessage() + "; the site is not counted live");
        }
      }
      queueMayChange = true;
      sweep.run();
    } else if (seg.length == 3 && seg[0].equals("jobs")) {
      JobRef ref = ref(seg);
      if (gone) {
        jobs.remove(ref);
      } else {
        try {
          JobSpec job = ZkRecords.read(node.getPath(), node.getData(), JobSpec.class);
          if (job.ref().equals(ref)) {
            jobs.put(ref, new CachedJob(job, node.getStat().getVersion()));
            zk.peerRecords.accepted(node.getPath());
          } else {
            zk.peerRecords.refuse("JobSpec", node.getPath(), "it names job " + job.ref() + "; ignored");
          }
        } catch (CoordinationException e) {
          zk.peerRecords.refuse("JobSpec", node.getPath(), e.getMessage() + "; ignored");
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
        if (seg.length == 4 && ref.home().equals(zk.site) && !gone) {
          // A claim given up (released) returns to the queue through its home. Not only on a
          // change: a claim released right after it was made can reach this cache already
          // released, as a creation (seen in CI). The recheck leaves a claim in use alone.
          recheck.accept(ref);
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

  /**
   * {@code site}'s status from its live node, believed only as the servers made the node: an
   * ephemeral node (it leaves with its site's session; a persistent one would keep a departed
   * site live, and leading, for good) whose record names the site of its path.
   */
  private static SiteStatus liveStatus(String site, ChildData node) {
    if (node.getStat() == null || node.getStat().getEphemeralOwner() == 0) {
      throw new IllegalArgumentException(node.getPath() + ": not an ephemeral node (a live node leaves with its site's session)");
    }
    SiteStatus status = ZkRecords.read(node.getPath(), node.getData(), SiteStatus.class);
    if (!status.site().equals(site)) {
      throw new IllegalArgumentException(node.getPath() + ": it names site " + status.site());
    }
    return status;
  }

  private static JobRef ref(String[] seg) {
    try {
      return new JobRef(seg[1], seg[2]);
    } catch (IllegalArgumentException e) {
      return new JobRef("invalid", "invalid");
    }
  }

  @Override
  public void close() {
    siteCache.close();
    jobTree.close();
  }
}
