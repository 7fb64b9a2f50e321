package org.coalition.coordination.zookeeper;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
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
 * ended, that its executor gave up, whose lease ran out or that passes the per-member cap, is
 * deleted and the job released again, in one multi with version checks. Only the home may write its job, so only the home requeues it. Sweeps run on
 * one background thread, at most one queued.
 */
final class ZkLostRuns implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ZkLostRuns.class);

  private final ZkSite zk;
  private final BooleanSupplier joined;
  private final ExecutorService background;
  private final AtomicBoolean sweepPending = new AtomicBoolean();
  private final Map<JobRef, Seen> seen = new ConcurrentHashMap<>();
  private final Map<JobRef, Gone> gone = new ConcurrentHashMap<>();

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

  /** A claim on one of this site's jobs as the sweep read it, and the member that made it. */
  private record Look(JobRef ref, Stat stat, ClaimRecord claim, String claimer) {}

  /** A claim whose executor's session this home first saw gone, and when (its clock): the restart grace runs from there. */
  private record Gone(long czxid, long sinceMillis) {}

  /** A claim's node version as this home first saw it, and when (its clock): the lease runs from there. */
  private record Seen(long czxid, int version, long sinceMillis) {}

  /**
   * Requeues every lost run of this site's jobs now; returns how many. A run is lost when its
   * claim was given up, its executor's session ended, its lease ran out (no renewal seen by this
   * home for the claim lease), or its claimer holds more of this site's jobs than the cap (the
   * newest claims past it).
   */
  int requeueLost() {
    List<Look> looks = new ArrayList<>();
    Set<Long> claims = new HashSet<>();
    List<String> jobIds;
    try {
      jobIds = zk.client.getChildren().forPath(zk.paths.jobsOf(zk.site));
    } catch (Exception e) {
      throw ZkSite.translate("requeueing lost runs of " + zk.site, e);
    }
    // each claim alone: one a member made unreadable, or a failed read, costs that claim this
    // sweep, never the sweep of the others
    for (String jobId : jobIds) {
      JobRef ref = new JobRef(zk.site, jobId);
      contained(ref, () -> look(ref, claims).ifPresent(looks::add));
    }
    looks.sort(Comparator.comparingLong(l -> l.stat().getCzxid()));
    Map<String, Integer> held = new HashMap<>();
    int[] n = {0};
    for (Look l : looks) {
      contained(l.ref(), () -> {
        Optional<String> why = lost(l);
        if (why.isEmpty() && held.merge(l.claimer(), 1, Integer::sum) > zk.options.maxClaimsPerMember()) {
          why = Optional.of(l.claimer() + " holds more than " + zk.options.maxClaimsPerMember() + " of this site's jobs");
        }
        if (why.isPresent() && requeue(l, why.get())) {
          n[0]++;
        }
      });
    }
    Set<JobRef> claimed = new HashSet<>();
    looks.forEach(l -> claimed.add(l.ref()));
    seen.keySet().retainAll(claimed);
    zk.claimAuthors.retain(claims);
    return n[0];
  }

  /** Runs one claim's part of a sweep; a failure there is logged with the job and the sweep goes on. */
  private void contained(JobRef ref, Task task) {
    try {
      task.run();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CoordinationException(CoordinationException.Kind.UNAVAILABLE, "interrupted while sweeping " + zk.site, e);
    } catch (CoordinationException e) {
      if (e.kind() == CoordinationException.Kind.UNAVAILABLE) {
        throw e; // no session: the whole sweep waits for the next event
      }
      LOG.warn("sweep of {}: {} skipped this time: {}", zk.site, ref, e.getMessage());
    } catch (KeeperException.ConnectionLossException | KeeperException.SessionExpiredException e) {
      throw ZkSite.translate("requeueing lost runs of " + zk.site, e);
    } catch (Exception e) {
      LOG.warn("sweep of {}: {} skipped this time: {}", zk.site, ref, e.toString());
    }
  }

  /**
   * The job's claim, if it has one and no result yet, with the member that made it (from the
   * claim's ACL: {@link ClaimAuthors}); {@code claims} gets the claim's creation zxid. A claim
   * whose record cannot be read, or names another executor than the member that made it, counts
   * as given up: the home puts the job back in the queue.
   */
  private Optional<Look> look(JobRef ref, Set<Long> claims) throws Exception {
    Stat claimStat = new Stat();
    byte[] claimData;
    try {
      claimData = zk.client.getData().storingStatIn(claimStat).forPath(zk.paths.claim(ref));
    } catch (KeeperException.NoNodeException e) {
      return Optional.empty();
    }
    claims.add(claimStat.getCzxid());
    if (zk.client.checkExists().forPath(zk.paths.result(ref)) != null) {
      return Optional.empty();
    }
    Optional<String> claimer;
    try {
      claimer = zk.claimAuthors.of(ref, claimStat.getCzxid());
    } catch (KeeperException.NoNodeException e) {
      return Optional.empty(); // gone since it was read
    }
    String path = zk.paths.claim(ref);
    if (claimer.isEmpty()) {
      zk.peerRecords.refuse("ClaimRecord", path, "its ACL is not a member's claim; the job is queued again");
      return Optional.of(new Look(ref, claimStat, GIVEN_UP, "no member"));
    }
    try {
      ClaimRecord claim = ZkRecords.read(path, claimData, ClaimRecord.class);
      if (!claim.executor().equals(claimer.get())) {
        zk.peerRecords.refuse("ClaimRecord", path, "it names executor " + claim.executor() + " but " + claimer.get()
            + " made it; the job is queued again");
        return Optional.of(new Look(ref, claimStat, GIVEN_UP, claimer.get()));
      }
      zk.peerRecords.accepted(path);
      return Optional.of(new Look(ref, claimStat, claim, claimer.get()));
    } catch (CoordinationException e) {
      zk.peerRecords.refuse("ClaimRecord", path, e.getMessage());
      return Optional.of(new Look(ref, claimStat, GIVEN_UP, claimer.get()));
    }
  }

  /** What the sweep makes of a claim it cannot believe: given up, so the job is queued again. */
  private static final ClaimRecord GIVEN_UP = new ClaimRecord("refused", -1, -1, true);

  /** Why the claim no longer holds, or empty while it does. */
  private Optional<String> lost(Look l) throws Exception {
    if (l.claim() == GIVEN_UP) {
      return Optional.of("its claim by " + l.claimer() + " was refused (above)");
    }
    if (l.claim().released()) {
      return Optional.of(l.claimer() + " gave it up");
    }
    Stat liveStat = zk.client.checkExists().forPath(zk.paths.live(l.claimer()));
    long now = zk.clock.millis();
    if (liveStat == null || liveStat.getEphemeralOwner() != l.claim().session()) {
      // its executor may come back and adopt it within the grace (a restarted daemon)
      Gone g = gone.compute(l.ref(), (k, old) -> old != null && old.czxid() == l.stat().getCzxid() ? old : new Gone(l.stat().getCzxid(), now));
      if (now - g.sinceMillis() >= zk.options.restartGrace().toMillis()) {
        return Optional.of(l.claimer() + " lost its session" + (zk.options.restartGrace().isZero() ? ""
            : " and did not take the claim back within " + zk.options.restartGrace().toSeconds() + " s"));
      }
    } else {
      gone.remove(l.ref());
    }
    Seen s = seen.compute(l.ref(), (k, old) -> old != null && old.czxid() == l.stat().getCzxid() && old.version() == l.stat().getVersion()
        ? old : new Seen(l.stat().getCzxid(), l.stat().getVersion(), now));
    if (now - s.sinceMillis() > zk.options.claimLease().toMillis()) {
      return Optional.of(l.claimer() + " did not renew its claim for " + zk.options.claimLease().toSeconds() + " s");
    }
    return Optional.empty(); // its executor's session is alive and renews the claim: the run goes on
  }

  private boolean requeueIfLost(JobRef ref) throws Exception {
    Optional<Look> l = look(ref, new HashSet<>());
    if (l.isEmpty()) {
      return false;
    }
    Optional<String> why = lost(l.get());
    return why.isPresent() && requeue(l.get(), why.get());
  }

  /** Deletes the claim and releases the job again, in one multi checked against both versions read. */
  private boolean requeue(Look l, String why) throws Exception {
    JobRef ref = l.ref();
    Stat jobStat = new Stat();
    JobSpec job = ZkRecords.read(zk.paths.job(ref), zk.client.getData().storingStatIn(jobStat).forPath(zk.paths.job(ref)), JobSpec.class);
    try {
      zk.client.transaction().forOperations(
          zk.client.transactionOp().delete().withVersion(l.stat().getVersion()).forPath(zk.paths.claim(ref)),
          zk.client.transactionOp().setData().withVersion(jobStat.getVersion()).forPath(zk.paths.job(ref),
              ZkRecords.write(job.releasedAt(zk.now()))));
    } catch (KeeperException.BadVersionException | KeeperException.NoNodeException | KeeperException.NotEmptyException e) {
      return false; // changed meanwhile (renewed, or a result arrived under the claim): the next sweep looks again
    }
    seen.remove(ref);
    LOG.info("requeued {}: claim {}: {}", ref, l.stat().getCzxid(), why);
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
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt(); // the handle is closing (close() interrupts the thread)
          LOG.debug("{} stopped: the handle is closing", what);
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
