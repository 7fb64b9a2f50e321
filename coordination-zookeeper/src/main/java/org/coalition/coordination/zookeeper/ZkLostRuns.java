package org.coalition.coordination.zookeeper;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.coalition.coordination.CoordinationException;
import org.coalition.coordination.JobRef;
import org.coalition.coordination.JobSpec;
import org.coalition.coordination.zookeeper.ZkRecords.ClaimRecord;
import org.coalition.coordination.zookeeper.ZkRecords.ResultRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The home's sweep for lost runs: a claim on one of this site's jobs whose executor's session
 * ended, or that its executor gave up, is deleted and the job released again, in one multi with
 * version checks. Only the home may write its job, so only the home requeues it. Sweeps run on
 * one background thread, at most one queued.
 */
final class ZkLostRuns implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ZkLostRuns.class);

  private final ZkSite zk;
  private final BooleanSupplier joined;
  private final ExecutorService background;
  private final AtomicBoolean sweepPending = new AtomicBoolean();

  /** Sweeps only while {@code joined}: before a site announces itself it has nothing to look after. */
  ZkLostRuns(ZkSite zk, BooleanSupplier joined) {
    this.zk = zk;
    this.joined = joined;
    this.background = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "coalition-zk-" + zk.site);
      t.setDaemon(true);
      return t;
    });
  }

  /** Requeues every lost run of this site's jobs now; returns how many. */
  int requeueLost() {
    int n = 0;
    try {
      for (String jobId : zk.client.getChildren().forPath(zk.paths.jobsOf(zk.site))) {
        if (requeueIfLost(new JobRef(zk.site, jobId))) {
          n++;
        }
      }
    } catch (Exception e) {
      throw ZkSite.translate("requeueing lost runs of " + zk.site, e);
    }
    return n;
  }

  private boolean requeueIfLost(JobRef ref) throws Exception {
    Stat claimStat = new Stat();
    byte[] claimData;
    try {
      claimData = zk.client.getData().storingStatIn(claimStat).forPath(zk.paths.claim(ref));
    } catch (KeeperException.NoNodeException e) {
      return false;
    }
    if (zk.client.checkExists().forPath(zk.paths.result(ref)) != null) {
      return false;
    }
    ClaimRecord claim;
    try {
      claim = ZkRecords.read(zk.paths.claim(ref), claimData, ClaimRecord.class);
    } catch (CoordinationException e) {
      LOG.warn("requeueing {} whose claim is unreadable: {}", ref, e.getMessage());
      claim = new ClaimRecord("?", -1, -1, true);
    }
    if (!claim.released()) {
      Stat liveStat = zk.client.checkExists().forPath(zk.paths.live(claim.executor()));
      if (liveStat != null && liveStat.getEphemeralOwner() == claim.session()) {
        return false; // its executor's session is alive: the run goes on
      }
    }
    Stat jobStat = new Stat();
    JobSpec job = ZkRecords.read(zk.paths.job(ref), zk.client.getData().storingStatIn(jobStat).forPath(zk.paths.job(ref)), JobSpec.class);
    try {
      zk.client.transaction().forOperations(
          zk.client.transactionOp().delete().withVersion(claimStat.getVersion()).forPath(zk.paths.claim(ref)),
          zk.client.transactionOp().setData().withVersion(jobStat.getVersion()).forPath(zk.paths.job(ref),
              ZkRecords.write(job.releasedAt(zk.now()))));
    } catch (KeeperException.BadVersionException | KeeperException.NoNodeException | KeeperException.NotEmptyException e) {
      return false; // changed meanwhile (or a result arrived under the claim): the next sweep looks again
    }
    LOG.info("requeued {}: {} (claim {}) {}", ref, claim.executor(), claimStat.getCzxid(),
        claim.released() ? "gave it up" : "lost its session");
    return true;
  }

  /** Whatever claim made it: a result that cannot be read names no token. */
  static final long ANY_TOKEN = -1;

  /**
   * Puts a job whose result the home refused back in the queue: its result and claim go and the
   * job is released now, in one multi checked against the versions read (the result must still be
   * the one of {@code token}, unless {@link #ANY_TOKEN}).
   */
  boolean reject(JobRef ref, long token, String reason) {
    try {
      Stat resultStat = new Stat();
      ResultRecord result;
      try {
        result = ZkRecords.read(zk.paths.result(ref), zk.client.getData().storingStatIn(resultStat).forPath(zk.paths.result(ref)),
            ResultRecord.class);
      } catch (KeeperException.NoNodeException e) {
        return false;
      } catch (CoordinationException e) {
        result = null; // unreadable: rejected whatever it says
      }
      Stat claimStat = zk.client.checkExists().forPath(zk.paths.claim(ref));
      if (claimStat == null || (token != ANY_TOKEN && (result == null || result.token() != token))) {
        return false;
      }
      Stat jobStat = new Stat();
      JobSpec job = ZkRecords.read(zk.paths.job(ref), zk.client.getData().storingStatIn(jobStat).forPath(zk.paths.job(ref)), JobSpec.class);
      zk.client.transaction().forOperations(
          zk.client.transactionOp().delete().withVersion(resultStat.getVersion()).forPath(zk.paths.result(ref)),
          zk.client.transactionOp().delete().withVersion(claimStat.getVersion()).forPath(zk.paths.claim(ref)),
          zk.client.transactionOp().setData().withVersion(jobStat.getVersion()).forPath(zk.paths.job(ref),
              ZkRecords.write(job.releasedAt(zk.now()))));
      LOG.warn("rejected the result of {} by claim {}: {}; the job is queued again", ref, token, reason);
      return true;
    } catch (KeeperException.BadVersionException | KeeperException.NoNodeException | KeeperException.NotEmptyException e) {
      return false; // changed meanwhile: the caller reads the results again
    } catch (Exception e) {
      throw ZkSite.translate("rejecting the result of " + ref, e);
    }
  }

  /** Rejects an unreadable result of one of this site's jobs on the background thread. */
  void rejectLater(JobRef ref, String reason) {
    inBackground(() -> reject(ref, ANY_TOKEN, reason), "rejecting the result of " + ref);
  }

  /** Sweeps this site's claimed jobs on the background thread, at most one sweep queued. */
  void sweepLater() {
    if (!joined.getAsBoolean() || !sweepPending.compareAndSet(false, true)) {
      return;
    }
    if (!inBackground(() -> {
      sweepPending.set(false);
      requeueLost();
    }, "requeue sweep of " + zk.site)) {
      sweepPending.set(false);
    }
  }

  /** Looks at one of this site's claimed jobs on the background thread (a claim was given up). */
  void recheckLater(JobRef ref) {
    inBackground(() -> requeueIfLost(ref), "requeueing " + ref);
  }

  /** Runs {@code task} on the background thread; false if the handle is closing. A failure is logged: the next event retries. */
  private boolean inBackground(Task task, String what) {
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
  private interface Task {
    void run() throws Exception;
  }

  @Override
  public void close() {
    background.shutdownNow();
  }
}
