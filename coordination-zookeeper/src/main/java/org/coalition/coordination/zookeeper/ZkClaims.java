package org.coalition.coordination.zookeeper;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.CreateOptions;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Stat;
import org.coalition.coordination.Claim;
import org.coalition.coordination.CoordinationException;
import org.coalition.coordination.CoordinationException.Kind;
import org.coalition.coordination.JobRef;
import org.coalition.coordination.JobSpec;
import org.coalition.coordination.RunResult;
import org.coalition.coordination.zookeeper.ZkQueueView.CachedJob;
import org.coalition.coordination.zookeeper.ZkRecords.ClaimRecord;
import org.coalition.coordination.zookeeper.ZkRecords.ResultRecord;
import org.coalition.zookeeper.policy.FederationAcls;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Claims with fencing. A claim is a node created in one multi with a check that the job's home is
 * live; its creation zxid is the token. Start, heartbeat and result go through the raw ZooKeeper
 * handle of the session that made the claim, never through Curator's retry on a new session: if
 * that session ended they fail, so a run whose claim may have been handed to another site can
 * never write. The result is created in one multi with a check of the claim's version, so it is
 * accepted at most once and only from the current claim.
 */
final class ZkClaims {
  private static final Logger LOG = LoggerFactory.getLogger(ZkClaims.class);

  private final ZkSite zk;
  private final ZkQueueView view;
  private final Map<Long, Fence> fences = new ConcurrentHashMap<>();
  /** Jobs a thread of this process is claiming now. */
  private final Map<JobRef, Boolean> claiming = new ConcurrentHashMap<>();
  private final FullHomes fullHomes = new FullHomes();
  /** Sessions of this handle found ended by a fenced call, and when (clock millis): claims they made are taken back until half the grace. */
  private final Map<Long, Long> sessionsEnded = new ConcurrentHashMap<>();

  /**
   * The session handle, claim-node version and job-node version a fenced operation must use. The
   * job's version matters because a claim node can be deleted and made again (the home requeued
   * or rejected the job, then a site claimed it anew) with the same version number; the job node
   * is never made again while the job lives, and each requeue moves its version.
   */
  private record Fence(ZooKeeper zk, long session, int version, int jobVersion, long renewedMillis) {
    Fence renewed(int newVersion, long atMillis) {
      return new Fence(zk, session, newVersion, jobVersion, atMillis);
    }
  }

  ZkClaims(ZkSite zk, ZkQueueView view) {
    this.zk = zk;
    this.view = view;
  }

  /**
   * One multi: the home is live, the job is the version the cache holds (so the claim carries
   * exactly that spec, with no read), and the claim node is created with its stat returned (its
   * creation zxid is the token). Only when the outcome is unknown (the connection broke) or the
   * cache has not seen the job yet does it read.
   */
  Optional<Claim> claim(JobRef ref) {
    // one claimer of a job at a time in this process: a claim of this session without a fence is then an orphan of an earlier
    // attempt (below), never one another thread is making now
    if (fullHomes.passedOver(ref.home()) || claiming.putIfAbsent(ref, Boolean.TRUE) != null) {
      return Optional.empty();
    }
    try {
      return claimAlone(ref);
    } finally {
      claiming.remove(ref);
    }
  }

  private Optional<Claim> claimAlone(JobRef ref) {
    ZooKeeper handle = zk.sessionHandle();
    long session = handle.getSessionId();
    String claimPath = zk.paths.claim(ref);
    CachedJob cached = view.cached(ref).orElse(null);
    byte[] claimData = ZkRecords.write(ClaimRecord.fresh(zk.site, session));
    try {
      for (int attempt = 0; ; attempt++) {
        List<Op> ops = new ArrayList<>();
        ops.add(Op.check(zk.paths.live(ref.home()), -1));
        if (cached != null) {
          ops.add(Op.check(zk.paths.job(ref), cached.version()));
        }
        ops.add(Op.create(claimPath, claimData, CreateOptions.newBuilder(claimAcl(ref.home()), CreateMode.PERSISTENT).build()));
        try {
          List<OpResult> done = ZkSite.fenced(handle, () -> handle.multi(ops));
          Stat stat = ((OpResult.CreateResult) done.get(done.size() - 1)).getStat();
          if (cached != null && stat != null) {
            return Optional.of(held(cached.job(), cached.version(), handle, session, stat));
          }
          break; // the job was not cached yet: read it with the claim below
        } catch (KeeperException.BadVersionException e) {
          if (attempt > 0) {
            return Optional.empty(); // the job keeps changing (requeued): leave it to the next wake-up
          }
          // requeued since the cache saw it (the event may still be on its way): read it once, then again
          Stat jobStat = new Stat();
          byte[] data = ZkSite.fenced(handle, () -> handle.getData(zk.paths.job(ref), false, jobStat));
          cached = new CachedJob(ZkRecords.read(zk.paths.job(ref), data, JobSpec.class), jobStat.getVersion());
        }
      }
    } catch (KeeperException.NoNodeException e) {
      return Optional.empty(); // withdrawn, or its home gone
    } catch (KeeperException.QuotaExceededException e) {
      fullHomes.foundFull(ref.home());
      LOG.warn("claiming {}: the servers refused the claim, {}'s jobs are at their quota; its jobs are passed over for {} s", ref, ref.home(),
          FullHomes.PAUSE.toSeconds());
      return Optional.empty();
    } catch (KeeperException.NodeExistsException e) {
      // claimed by someone else, or by this session: a multi applied before its connection broke and retried on the same
      // session (ZkSite.fenced), or an earlier attempt whose answer was lost: read below, taken when it is such an orphan
    } catch (CoordinationException e) {
      if (e.kind() != Kind.UNAVAILABLE) {
        throw e;
      }
      // fall through: the multi may have been applied before the connection broke
    } catch (KeeperException e) {
      throw ZkSite.translate("claiming " + ref, e);
    }
    try {
      Stat stat = new Stat();
      byte[] data = ZkSite.fenced(handle, () -> handle.getData(claimPath, false, stat));
      ClaimRecord record = ZkRecords.read(claimPath, data, ClaimRecord.class);
      if (!record.executor().equals(zk.site) || record.session() != session || record.released() || fences.containsKey(stat.getCzxid())
          || ZkSite.fenced(handle, () -> handle.exists(zk.paths.result(ref), false)) != null) {
        return Optional.empty(); // another's, given up, handed out here already, or run to its end
      }
      Stat jobStat = new Stat();
      JobSpec job = ZkRecords.read(zk.paths.job(ref), ZkSite.fenced(handle, () -> handle.getData(zk.paths.job(ref), false, jobStat)),
          JobSpec.class);
      return Optional.of(held(job, jobStat.getVersion(), handle, session, stat));
    } catch (KeeperException.NoNodeException e) {
      return Optional.empty();
    } catch (KeeperException e) {
      throw ZkSite.translate("reading the claim on " + ref, e);
    }
  }

  /**
   * Takes back a claim of this site's from an earlier session (docs/decisions/0011): read the
   * claim and its job, check it is still this site's, with this token and not given up, then
   * rewrite it under this session in one multi checked against both versions. True when held
   * again; false when its result is in already (nothing to take back).
   */
  boolean adopt(Claim claim) {
    JobRef ref = claim.ref();
    String path = zk.paths.claim(ref);
    ZooKeeper handle = zk.sessionHandle();
    long session = handle.getSessionId();
    try {
      Stat jobStat = new Stat();
      ZkSite.fenced(handle, () -> handle.getData(zk.paths.job(ref), false, jobStat));
      Stat claimStat = new Stat();
      ClaimRecord record = ZkRecords.read(path, ZkSite.fenced(handle, () -> handle.getData(path, false, claimStat)), ClaimRecord.class);
      if (claimStat.getCzxid() != claim.token() || !record.executor().equals(zk.site) || record.released()) {
        throw CoordinationException.stale(claim, "the job's claim is no longer this site's");
      }
      if (ZkSite.fenced(handle, () -> handle.exists(zk.paths.result(ref), false)) != null) {
        return false; // handed in before the restart: nothing to take back
      }
      List<Op> ops = List.of(Op.check(zk.paths.job(ref), jobStat.getVersion()),
          Op.setData(path, ZkRecords.write(new ClaimRecord(zk.site, session, record.startTime(), false)), claimStat.getVersion()));
      List<OpResult> done = ZkSite.fenced(handle, () -> handle.multi(ops));
      Stat stat = ((OpResult.SetDataResult) done.get(1)).getStat();
      fences.put(claim.token(), new Fence(handle, session, stat.getVersion(), jobStat.getVersion(), zk.clock.millis()));
      view.claimedHere(ref);
      return true;
    } catch (KeeperException.NoNodeException | KeeperException.BadVersionException e) {
      throw CoordinationException.stale(claim, "the job or its claim changed or is gone (requeued by its home)");
    } catch (KeeperException e) {
      throw ZkSite.translate("adopting the claim on " + ref, e);
    }
  }

  private Claim held(JobSpec job, int jobVersion, ZooKeeper handle, long session, Stat claimStat) {
    fences.put(claimStat.getCzxid(), new Fence(handle, session, claimStat.getVersion(), jobVersion, zk.clock.millis()));
    view.claimedHere(job.ref());
    return new Claim(job, zk.site, claimStat.getCzxid());
  }

  /**
   * A fenced check, not a write: the claim must still be this session's. The start time travels
   * in the result ({@link RunResult#start()}); ZooKeeper's session already proves the run's
   * executor alive, so neither start nor heartbeat costs a write.
   */
  void checkHeld(Claim claim) {
    Fence fence = fence(claim);
    String path = zk.paths.claim(claim.ref());
    try {
      Stat stat = new Stat();
      byte[] data = ZkSite.fenced(fence.zk(), () -> fence.zk().getData(path, false, stat));
      ClaimRecord record = ZkRecords.read(path, data, ClaimRecord.class);
      if (stat.getCzxid() != claim.token() || record.session() != fence.session() || record.released()) {
        throw CoordinationException.stale(claim, "the job's claim is now " + stat.getCzxid());
      }
    } catch (KeeperException.NoNodeException e) {
      throw CoordinationException.stale(claim, "the job has no claim any more");
    } catch (CoordinationException e) {
      if (!readopted(claim, fence, e)) {
        throw e;
      }
      checkHeld(claim);
    } catch (KeeperException e) {
      throw ZkSite.translate("checking the claim on " + claim.ref(), e);
    }
  }

  /**
   * A start or a heartbeat: renews the claim's lease by rewriting its node (same record, version
   * checked with the job's) once a quarter of the lease has passed since the last renewal, and
   * in between only checks that the claim is still this session's (a read).
   */
  void renew(Claim claim) {
    Fence fence = fence(claim);
    long now = zk.clock.millis();
    if (now - fence.renewedMillis() < zk.options.claimLease().toMillis() / 4) {
      checkHeld(claim);
      return;
    }
    String path = zk.paths.claim(claim.ref());
    List<Op> ops = List.of(Op.check(zk.paths.job(claim.ref()), fence.jobVersion()),
        Op.setData(path, ZkRecords.write(ClaimRecord.fresh(zk.site, fence.session())), fence.version()));
    try {
      List<OpResult> done = ZkSite.fenced(fence.zk(), () -> fence.zk().multi(ops));
      Stat stat = ((OpResult.SetDataResult) done.get(1)).getStat();
      fences.put(claim.token(), fence.renewed(stat.getVersion(), now));
    } catch (KeeperException.BadVersionException | KeeperException.NoNodeException e) {
      throw CoordinationException.stale(claim, "the claim node changed or is gone (its lease may have run out)");
    } catch (CoordinationException e) {
      if (!readopted(claim, fence, e)) {
        throw e;
      }
      renew(claim);
    } catch (KeeperException e) {
      throw ZkSite.translate("renewing the claim on " + claim.ref(), e);
    }
  }

  boolean holds(Claim claim) {
    Fence fence = fences.get(claim.token());
    if (fence == null || !fence.zk().getState().isAlive()) {
      return false;
    }
    String path = zk.paths.claim(claim.ref());
    try {
      Stat stat = new Stat();
      byte[] data = ZkSite.fenced(fence.zk(), () -> fence.zk().getData(path, false, stat));
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
      throw ZkSite.translate("checking the claim on " + claim.ref(), e);
    }
  }

  /** The result and this site's finished-run record, in one multi checked against the job's and the claim's versions. */
  void finish(Claim claim, RunResult result) {
    JobRef ref = claim.ref();
    Fence fence = fences.get(claim.token());
    if (fence == null) {
      if (acceptedWith(null, ref, claim.token())) {
        return; // a repeated call: already accepted
      }
      throw CoordinationException.stale(claim, "it was not made by this handle (or it was given up)");
    }
    List<Op> ops = List.of(
        Op.check(zk.paths.job(ref), fence.jobVersion()),
        Op.check(zk.paths.claim(ref), fence.version()),
        Op.create(zk.paths.result(ref), ZkRecords.write(new ResultRecord(zk.site, claim.token(), result)), FederationAcls.result(zk.self),
            CreateMode.PERSISTENT));
    try {
      ZkSite.fenced(fence.zk(), () -> fence.zk().multi(ops));
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
      if (!readopted(claim, fence, e)) {
        throw e;
      }
      finish(claim, result);
    } catch (KeeperException e) {
      throw ZkSite.translate("finishing " + ref, e);
    }
  }

  /** Gives the claim up: marked released, so the home requeues the job. */
  void release(Claim claim) {
    Fence fence = fence(claim);
    String path = zk.paths.claim(claim.ref());
    byte[] data = ZkRecords.write(new ClaimRecord(zk.site, fence.session(), -1, true));
    List<Op> ops = List.of(Op.check(zk.paths.job(claim.ref()), fence.jobVersion()), Op.setData(path, data, fence.version()));
    try {
      ZkSite.fenced(fence.zk(), () -> fence.zk().multi(ops));
      fences.remove(claim.token());
    } catch (KeeperException.BadVersionException | KeeperException.NoNodeException e) {
      throw CoordinationException.stale(claim, "the claim node changed or is gone");
    } catch (CoordinationException e) {
      if (!readopted(claim, fence, e)) {
        throw e;
      }
      release(claim);
    } catch (KeeperException e) {
      throw ZkSite.translate("releasing " + claim.ref(), e);
    }
  }

  private Fence fence(Claim claim) {
    Fence fence = fences.get(claim.token());
    if (fence == null) {
      throw CoordinationException.stale(claim, "it was not made by this handle (or it was already finished or given up)");
    }
    return fence;
  }

  /**
   * Whether a fenced operation that failed with {@code e} may be tried again: its session ended
   * (an expiry: a flaky link, a long pause) and the claim was taken back under the session Curator
   * made since, as a restarted daemon takes its claims back ({@link #adopt}). The home waits its
   * restart grace for that before it requeues the job, so a run outlives a lost session as it
   * outlives a restart (docs/decisions/0011-durable-work.md). False when the session did not end
   * (the caller throws {@code e}); UNAVAILABLE while there is no new session yet; STALE when the
   * claim is lost: the home requeued the job meanwhile, this handle has no restart grace (its
   * claims end with its session), or half the grace has passed since this handle first found the
   * session ended. The home counts the whole grace from about the same moment (the servers'
   * expiry), so a run given up here has ended before its job can start elsewhere.
   */
  private boolean readopted(Claim claim, Fence fence, CoordinationException e) {
    if (e.kind() != Kind.UNAVAILABLE || fence.zk().getState().isAlive()) {
      return false;
    }
    Duration grace = zk.options.restartGrace();
    String ended = "the session that made it (0x" + Long.toHexString(fence.session()) + ") has ended";
    if (grace.isZero()) {
      throw CoordinationException.stale(claim, ended);
    }
    long now = zk.clock.millis();
    long since = sessionsEnded.computeIfAbsent(fence.session(), s -> now);
    if (now - since > grace.toMillis() / 2) {
      throw CoordinationException.stale(claim, ended + " " + (now - since) / 1000 + " s ago, and the claim could not be taken back within"
          + " half the restart grace (" + grace.toSeconds() + " s); its home requeues it");
    }
    if (!adopt(claim)) {
      throw CoordinationException.stale(claim, "its result is in already");
    }
    LOG.info("site {}: took back the claim on {} under session 0x{}: the session that made it (0x{}) ended", zk.site, claim.ref(),
        Long.toHexString(zk.sessionHandle().getSessionId()), Long.toHexString(fence.session()));
    return true;
  }

  /** Whether the job's result is the one of claim {@code token} (read on {@code handle}, or through Curator when null). */
  private boolean acceptedWith(ZooKeeper handle, JobRef ref, long token) {
    try {
      byte[] data = handle != null ? handle.getData(zk.paths.result(ref), false, null) : zk.client.getData().forPath(zk.paths.result(ref));
      return ZkRecords.read(zk.paths.result(ref), data, ResultRecord.class).token() == token;
    } catch (KeeperException.NoNodeException e) {
      return false;
    } catch (Exception e) {
      throw ZkSite.translate("reading the result of " + ref, e);
    }
  }

  /** A claim node: the ACL the servers' policy prescribes ({@link FederationAcls#claim}). */
  private List<ACL> claimAcl(String home) {
    return FederationAcls.claim(zk.self, zk.member(home));
  }

}
