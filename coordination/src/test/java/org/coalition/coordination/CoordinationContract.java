package org.coalition.coordination;

import static org.coalition.testbed.Eventually.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.coalition.coordination.CoordinationException.Kind;
import org.coalition.policy.fairness.Utility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The rules every {@link Coordination} keeps, run against the in-memory implementation
 * ({@code InMemoryCoordinationTest}) and against real ZooKeeper ({@code ZkCoordinationIT}).
 * Members of the test federation: sites a, b and c.
 */
public abstract class CoordinationContract {
  private final List<Coordination> opened = new ArrayList<>();

  /** The federation's clock; implementations under test must take their time from it. */
  protected final MutableClock clock = new MutableClock(Instant.parse("2026-11-21T00:00:00Z"));

  /** The claim lease and the cap on one member's claims that implementations under test must be given. */
  protected static final Duration CLAIM_LEASE = Duration.ofMinutes(5);
  protected static final int MAX_CLAIMS_PER_MEMBER = 4;

  /** A new handle for member {@code site} of this test's federation. */
  protected abstract Coordination newHandle(String site);

  /** Ends {@code handle}'s session as the server's expiry would; the handle then reconnects on a new session. */
  protected abstract void expireSession(Coordination handle);

  /** A handle for {@code site} that, as a home, requeues a claim whose executor's session ended only after {@code restartGrace}. */
  protected abstract Coordination newHandle(String site, Duration restartGrace);

  /** The restart grace the adoption tests give their home. */
  protected static final Duration RESTART_GRACE = Duration.ofMinutes(1);

  protected final Coordination connect(String site) {
    Coordination c = newHandle(site);
    opened.add(c);
    return c;
  }

  protected final Coordination join(String site) {
    Coordination c = connect(site);
    c.join(new SiteInfo(site, "https://" + site + ".example:8443", 64), status(site, 0));
    return c;
  }

  protected static SiteStatus status(String site, double queue) {
    return new SiteStatus(site, 64, queue, (int) (queue / 3600), 0.5, 7200);
  }

  protected static JobSpec job(String home, String id, double release) {
    return JobSpec.builder(id, home).cores(2).memoryMb(1024).walltimeSeconds(3600).release(release).payload("{\"script\":\"run.sh\"}").build();
  }

  @AfterEach
  void closeAll() {
    for (Coordination c : opened) {
      c.close();
    }
  }

  private static boolean queued(Coordination c, JobRef ref) {
    return c.queue().stream().anyMatch(j -> j.ref().equals(ref));
  }

  @Test
  void membershipShowsLiveSitesAndKeepsTheirRecords() {
    Coordination a = join("a");
    Coordination b = join("b");
    waitFor("a sees a and b live", () -> a.liveSites().keySet().containsAll(List.of("a", "b")));
    b.updateStatus(status("b", 36000));
    waitFor("a sees b's new queue length", () -> a.liveSites().get("b").queueCoreSeconds() == 36000);
    b.close();
    waitFor("b's live entry goes with its session", () -> !a.liveSites().containsKey("b"));
    assertEquals(64, a.knownSites().get("b").cores(), "the persistent record stays");
  }

  @Test
  void publishedJobsAreQueuedOldestFirstAndWithdrawnOnlyOnce() {
    Coordination a = join("a");
    Coordination b = join("b");
    a.publish(job("a", "j2", 20));
    a.publish(job("a", "j1", 10));
    waitFor("b sees both jobs", () -> b.queue().size() == 2);
    assertEquals(List.of("j1", "j2"), b.queue().stream().map(JobSpec::jobId).toList());
    assertTrue(a.withdraw("j1"));
    assertFalse(a.withdraw("j1"), "a second withdrawal finds nothing");
    waitFor("j1 leaves the queue", () -> b.queue().size() == 1);
    CoordinationException dup = assertThrows(CoordinationException.class, () -> a.publish(job("a", "j2", 20)));
    assertEquals(Kind.INVALID, dup.kind());
  }

  @Test
  void aBatchIsPublishedWholeOrNotAtAll() {
    Coordination a = join("a");
    Coordination b = join("b");
    a.publish(List.of(job("a", "j1", 1), job("a", "j2", 2)));
    waitFor("b sees the batch", () -> b.queue().size() == 2);
    CoordinationException dup = assertThrows(CoordinationException.class, () -> a.publish(List.of(job("a", "j3", 3), job("a", "j2", 2))));
    assertEquals(Kind.INVALID, dup.kind());
    assertTrue(dup.getMessage().contains("a/j2"), dup.getMessage());
    assertTrue(a.withdraw("j1"));
    assertFalse(a.withdraw("j3"), "j3 was not published: its batch failed");
    assertEquals(Kind.INVALID, assertThrows(CoordinationException.class,
        () -> a.publish(List.of(job("a", "j4", 4), job("a", "j4", 4)))).kind(), "a job listed twice");
    List<JobSpec> tooMany = new ArrayList<>();
    for (int i = 0; i <= Coordination.MAX_PUBLISH_BATCH; i++) {
      tooMany.add(job("a", "k" + i, i));
    }
    assertEquals(Kind.INVALID, assertThrows(CoordinationException.class, () -> a.publish(tooMany)).kind());
    assertEquals(Kind.FORBIDDEN, assertThrows(CoordinationException.class,
        () -> a.publish(List.of(job("a", "j5", 5), job("b", "j6", 6)))).kind());
    assertFalse(a.withdraw("j5"), "nothing of a refused batch is published");
    waitFor("only j2 left", () -> b.queue().stream().map(JobSpec::jobId).toList().equals(List.of("j2")));
  }

  @Test
  void aHomesJobsShowWhereEachStands() {
    Coordination a = join("a");
    Coordination b = join("b");
    a.publish(List.of(job("a", "q", 1), job("a", "c", 2), job("a", "f", 3)));
    waitFor("b sees a's three jobs", () -> b.queue().size() == 3);
    Claim claimed = b.claim(new JobRef("a", "c")).orElseThrow();
    Claim finished = b.claim(new JobRef("a", "f")).orElseThrow();
    b.start(finished, 10);
    b.finish(finished, RunResult.builder(10, 20).build());
    List<FederatedJob> expected = List.of(
        new FederatedJob(job("a", "q", 1), "", false),
        new FederatedJob(claimed.job(), "b", false),
        new FederatedJob(finished.job(), "b", true));
    waitFor("a sees where its jobs stand", () -> a.jobs("a").equals(expected));
    waitFor("b sees the same", () -> b.jobs("a").equals(expected));
    assertEquals(List.of(), a.jobs("b"), "b published nothing");
    b.release(claimed);
    waitFor("a released claim shows queued again",
        () -> a.jobs("a").stream().anyMatch(j -> j.job().jobId().equals("c") && !j.claimed() && !j.finished()));
    a.acknowledge(a.results());
    waitFor("an acknowledged job leaves the list", () -> a.jobs("a").size() == 2);
  }

  @Test
  void aSiteCannotPublishOrWithdrawAnotherSitesJobs() {
    Coordination a = join("a");
    Coordination b = join("b");
    a.publish(job("a", "j1", 0));
    assertEquals(Kind.FORBIDDEN, assertThrows(CoordinationException.class, () -> b.publish(job("a", "x", 0))).kind());
    assertFalse(b.withdraw("j1"), "b has no job j1; a's j1 is untouched");
    waitFor("a's job still queued", () -> queued(b, new JobRef("a", "j1")));
  }

  @Test
  void concurrentClaimersGetEachJobExactlyOnce() throws Exception {
    Coordination a = join("a");
    Coordination b = join("b");
    Coordination c = join("c");
    int n = 40;
    for (int i = 0; i < n; i++) {
      a.publish(job("a", "j" + i, i));
    }
    waitFor("b and c see all jobs", () -> b.queue().size() == n && c.queue().size() == n);
    Map<JobRef, AtomicInteger> wins = new ConcurrentHashMap<>();
    CountDownLatch go = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(4);
    List<Future<?>> futures = new ArrayList<>();
    for (Coordination claimer : List.of(b, c, b, c)) {
      futures.add(pool.submit(() -> {
        go.await();
        for (int i = 0; i < n; i++) {
          JobRef ref = new JobRef("a", "j" + i);
          claimer.claim(ref).ifPresent(cl -> wins.computeIfAbsent(cl.ref(), r -> new AtomicInteger()).incrementAndGet());
        }
        return null;
      }));
    }
    go.countDown();
    for (Future<?> f : futures) {
      f.get(60, TimeUnit.SECONDS);
    }
    pool.shutdown();
    assertEquals(n, wins.size(), "every job claimed");
    wins.forEach((ref, count) -> assertEquals(1, count.get(), ref + " claimed once"));
    waitFor("the queue is empty", () -> b.queue().isEmpty());
  }

  @Test
  void aWithdrawalAndAClaimNeverBothSucceed() throws Exception {
    Coordination a = join("a");
    Coordination b = join("b");
    int n = 40;
    for (int i = 0; i < n; i++) {
      a.publish(job("a", "w" + i, i));
    }
    waitFor("b sees all jobs", () -> b.queue().size() == n);
    ExecutorService pool = Executors.newFixedThreadPool(2);
    int both = 0;
    int neither = 0;
    for (int i = 0; i < n; i++) {
      String id = "w" + i;
      CountDownLatch go = new CountDownLatch(1);
      Future<Boolean> withdrawn = pool.submit(() -> {
        go.await();
        return a.withdraw(id);
      });
      Future<Optional<Claim>> claimed = pool.submit(() -> {
        go.await();
        return b.claim(new JobRef("a", id));
      });
      go.countDown();
      boolean w = withdrawn.get(30, TimeUnit.SECONDS);
      boolean c = claimed.get(30, TimeUnit.SECONDS).isPresent();
      both += w && c ? 1 : 0;
      neither += !w && !c ? 1 : 0;
    }
    pool.shutdown();
    assertEquals(0, both, "withdrawn and claimed");
    assertEquals(0, neither, "neither withdrawn nor claimed");
  }

  @Test
  void aResultIsAcceptedOnceAndFoldedIntoBothLedgers() {
    Coordination a = join("a");
    Coordination b = join("b");
    a.publish(job("a", "j1", 100));
    waitFor("b sees j1", () -> queued(b, new JobRef("a", "j1")));
    Claim claim = b.claim(new JobRef("a", "j1")).orElseThrow();
    assertTrue(b.claim(new JobRef("a", "j1")).isEmpty(), "a claimed job cannot be claimed again");
    assertFalse(a.withdraw("j1"), "a claimed job cannot be withdrawn");
    b.start(claim, 200);
    b.heartbeat(claim);
    RunResult run = RunResult.builder(200, 1200).exitCode(3).output("https://b.example/out/j1").build();
    b.finish(claim, run);
    b.finish(claim, run); // a repeat after an ambiguous failure is harmless
    assertEquals(0, b.ledgers().get("b").jobsExecuted(), "an executor's own report credits it nothing");
    waitFor("a sees the result", () -> a.results().size() == 1);
    Completed done = a.results().get(0);
    assertEquals("b", done.executor());
    assertEquals(claim.token(), done.token());
    assertEquals(run, done.result());
    assertEquals(1, a.acknowledge(a.results()));
    assertEquals(0, a.acknowledge(List.of(done)), "acknowledged once only");
    SiteLedger la = a.ledgers().get("a");
    SiteLedger lb = b.ledgers().get("b");
    double w = 1000.0 * 2;
    assertEquals(w, la.utility().get(Utility.SIMPL).at(5000), 1e-9);
    assertEquals(w, lb.contribution().get(Utility.SIMPL).at(5000), 1e-9);
    assertEquals(Utility.ORIG.of(100, 200, 1200, 2, 5000), lb.contribution().get(Utility.ORIG).at(5000), 1e-6);
    assertEquals(Utility.REL.of(100, 200, 1200, 2, 5000), la.utility().get(Utility.REL).at(5000), 1e-6);
    assertEquals(1, la.jobsSubmitted());
    assertEquals(1, lb.jobsExecuted());
    assertTrue(la.priority(Utility.SIMPL, 5000) < 0 && lb.priority(Utility.SIMPL, 5000) > 0, "b contributed, a used");
    waitFor("the finished job is gone from the queue", () -> b.queue().isEmpty() && a.results().isEmpty());
  }

  @Test
  void aRejectedResultIsNeverFoldedAndItsJobIsQueuedAgainForAnotherClaim() {
    Coordination a = join("a");
    Coordination b = join("b");
    Coordination c = join("c");
    a.publish(job("a", "j1", 100));
    JobRef ref = new JobRef("a", "j1");
    waitFor("b sees j1", () -> queued(b, ref));
    Claim claim = b.claim(ref).orElseThrow();
    b.finish(claim, RunResult.builder(200, 1e12).build());
    waitFor("a sees the result", () -> a.results().size() == 1);
    Completed bad = a.results().get(0);
    assertTrue(bad.claimedAt() <= bad.reportedAt(), "the store's stamps: claimed " + bad.claimedAt() + ", reported " + bad.reportedAt());
    assertTrue(a.reject(bad, "ends in the far future"));
    assertFalse(a.reject(bad, "again"), "rejected once");
    assertThrows(CoordinationException.class, () -> c.reject(bad, "not c's job"), "only the home rejects");
    assertEquals(0, a.acknowledge(List.of(bad)), "a rejected result cannot be acknowledged");
    assertEquals(0, a.ledgers().get("a").jobsSubmitted(), "nothing folded");
    waitFor("j1 is queued again", () -> queued(c, ref) && a.results().isEmpty());
    Claim again = c.claim(ref).orElseThrow();
    assertTrue(again.token() != claim.token(), "a new claim, a new token");
    assertEquals(Kind.STALE, assertThrows(CoordinationException.class, () -> b.finish(claim, RunResult.builder(200, 300).build())).kind(),
        "the rejected claim's token is refused");
  }

  @Test
  void aClaimNotRenewedForItsLeaseReturnsToTheQueueThoughItsClaimerLives() {
    Coordination a = join("a");
    Coordination b = join("b");
    Coordination c = join("c");
    a.publish(job("a", "j1", 100));
    JobRef ref = new JobRef("a", "j1");
    waitFor("b sees j1", () -> queued(b, ref));
    Claim claim = b.claim(ref).orElseThrow();
    b.start(claim, 200);
    assertEquals(0, a.requeueLost(), "just claimed");
    Duration half = CLAIM_LEASE.dividedBy(2).plusSeconds(1);
    clock.advance(half);
    b.heartbeat(claim);
    assertEquals(0, a.requeueLost(), "renewed");
    clock.advance(half);
    assertEquals(0, a.requeueLost(), "renewed " + half.toSeconds() + " s ago, within the lease");
    clock.advance(CLAIM_LEASE.dividedBy(2));
    assertEquals(1, a.requeueLost(), "not renewed for longer than the lease: the member squats it");
    waitFor("j1 queued again", () -> queued(c, ref));
    assertEquals(Kind.STALE, assertThrows(CoordinationException.class, () -> b.heartbeat(claim)).kind(), "the lapsed claim is refused");
  }

  @Test
  void aMemberHoldsNoMoreOfAHomesJobsThanTheCap() {
    Coordination a = join("a");
    Coordination b = join("b");
    List<JobSpec> jobs = new ArrayList<>();
    for (int i = 0; i < MAX_CLAIMS_PER_MEMBER + 2; i++) {
      jobs.add(job("a", "j" + i, 100 + i));
    }
    a.publish(jobs);
    waitFor("b sees them all", () -> b.queue().size() == jobs.size());
    for (JobSpec j : jobs) {
      b.claim(j.ref()).orElseThrow();
    }
    assertEquals(2, a.requeueLost(), "the claims past the cap go back");
    waitFor("the two newest claims are queued again", () -> b.queue().stream().map(JobSpec::jobId).toList()
        .equals(List.of("j" + MAX_CLAIMS_PER_MEMBER, "j" + (MAX_CLAIMS_PER_MEMBER + 1))));
    assertTrue(b.claim(jobs.get(MAX_CLAIMS_PER_MEMBER).ref()).isPresent(), "claimable again (by anyone)");
    assertEquals(1, a.requeueLost(), "and still over the cap");
  }

  @Test
  void whenTheExecutorsSessionEndsTheJobReturnsAndTheOldTokenIsRefused() {
    Coordination a = join("a");
    Coordination b = join("b");
    Coordination c = join("c");
    a.publish(job("a", "j1", 10));
    waitFor("b sees j1", () -> queued(b, new JobRef("a", "j1")));
    Claim old = b.claim(new JobRef("a", "j1")).orElseThrow();
    b.start(old, 20);
    clock.advance(Duration.ofSeconds(500));
    expireSession(b);
    // the claim's removal and the job's new release are one multi, but a view may hear the first a
    // moment before it has read the second (seen under load): wait for the job as requeued
    waitFor("j1 back in the queue, released again as if just submitted (at 500)",
        () -> queued(c, new JobRef("a", "j1")) && c.queue().get(0).release() == 500);
    assertFalse(b.holds(old), "a site that comes back sees it lost the claim (and kills the run)");
    Claim fresh = c.claim(new JobRef("a", "j1")).orElseThrow();
    assertTrue(fresh.token() != old.token());
    assertEquals(Kind.STALE, assertThrows(CoordinationException.class, () -> b.start(old, 30)).kind());
    assertEquals(Kind.STALE, assertThrows(CoordinationException.class, () -> b.heartbeat(old)).kind());
    assertEquals(Kind.STALE, assertThrows(CoordinationException.class,
        () -> b.finish(old, RunResult.builder(20, 40).build())).kind());
    c.start(fresh, 50);
    c.finish(fresh, RunResult.builder(50, 90).build());
    waitFor("a gets c's result", () -> a.results().size() == 1);
    assertEquals("c", a.results().get(0).executor());
  }

  /** Issue #23 (work in progress): a restarted executor takes its claims back within its home's grace; after it, they are gone. */
  @Test
  void aRestartedExecutorAdoptsItsClaimWithinTheHomesGraceAndNotAfter() {
    Coordination a = newHandle("a", RESTART_GRACE);
    opened.add(a);
    a.join(new SiteInfo("a", "https://a.example:8443", 64), status("a", 0));
    Coordination b = join("b");
    a.publish(job("a", "j1", 10));
    a.publish(job("a", "j2", 11));
    waitFor("b sees both", () -> b.queue().size() == 2);
    Claim kept = b.claim(new JobRef("a", "j1")).orElseThrow();
    Claim dropped = b.claim(new JobRef("a", "j2")).orElseThrow();
    b.start(kept, 20);
    b.start(dropped, 20);
    b.close(); // the daemon stops (an upgrade); its session ends with it
    Coordination back = join("b");
    assertEquals(0, a.requeueLost(), "within the grace the claims wait for their executor");
    assertTrue(back.adopt(kept), "held again");
    back.heartbeat(kept);
    clock.advance(RESTART_GRACE.plusSeconds(1));
    assertEquals(1, a.requeueLost(), "the claim not taken back goes back to the queue after the grace");
    assertEquals(Kind.STALE, assertThrows(CoordinationException.class, () -> back.adopt(dropped)).kind());
    back.finish(kept, RunResult.builder(20, 40).build());
    waitFor("a gets the adopted run's result", () -> a.results().size() == 1);
    assertEquals("b", a.results().get(0).executor());
    assertFalse(back.adopt(kept), "handed in: nothing to adopt, and no run lost (a report just before a restart)");
  }

  /**
   * Issue #23: an executor whose session ended while it ran a job (an expiry: a flaky link, a long
   * pause) takes the claim back at its next call, as a restarted daemon would, and its result counts.
   */
  @Test
  void anExecutorWhoseSessionEndedTakesItsClaimBackAtItsNextCallWithinTheHomesGrace() {
    Coordination a = newHandle("a", RESTART_GRACE);
    opened.add(a);
    a.join(new SiteInfo("a", "https://a.example:8443", 64), status("a", 0));
    Coordination b = newHandle("b", RESTART_GRACE);
    opened.add(b);
    b.join(new SiteInfo("b", "https://b.example:8443", 64), status("b", 0));
    a.publish(job("a", "j1", 10));
    waitFor("b sees j1", () -> queued(b, new JobRef("a", "j1")));
    Claim claim = b.claim(new JobRef("a", "j1")).orElseThrow();
    b.start(claim, 20);
    expireSession(b);
    waitFor("b's next heartbeat takes the claim back under its new session", () -> {
      try {
        b.heartbeat(claim);
        return true;
      } catch (CoordinationException e) {
        if (e.kind() != Kind.UNAVAILABLE) {
          throw e;
        }
        return false; // no new session yet
      }
    });
    assertTrue(b.holds(claim), "held again, with the same token");
    assertEquals(0, a.requeueLost(), "the run goes on: its home does not requeue it");
    b.finish(claim, RunResult.builder(20, 40).build());
    waitFor("a gets b's result", () -> a.results().size() == 1);
    assertEquals(claim.token(), a.results().get(0).token());
  }

  @Test
  void aClaimGivenUpReturnsToTheQueue() {
    Coordination a = join("a");
    Coordination b = join("b");
    a.publish(job("a", "j1", 10));
    waitFor("b sees j1", () -> queued(b, new JobRef("a", "j1")));
    Claim claim = b.claim(new JobRef("a", "j1")).orElseThrow();
    b.release(claim);
    waitFor("j1 back in the queue", () -> queued(b, new JobRef("a", "j1")));
    assertEquals(Kind.STALE, assertThrows(CoordinationException.class,
        () -> b.finish(claim, RunResult.builder(20, 40).build())).kind());
    assertTrue(b.claim(new JobRef("a", "j1")).isPresent(), "claimable again");
  }

  @Test
  void whenTheHomeLeavesItsQueuedJobsGoAndItsRunningJobsFinish() {
    Coordination a = join("a");
    Coordination b = join("b");
    a.publish(job("a", "running", 10));
    a.publish(job("a", "waiting", 20));
    waitFor("b sees both", () -> b.queue().size() == 2);
    Claim claim = b.claim(new JobRef("a", "running")).orElseThrow();
    a.close();
    waitFor("a's queued job withdrawn with its session", () -> b.queue().isEmpty());
    assertTrue(b.claim(new JobRef("a", "waiting")).isEmpty(), "a job of a gone home cannot be claimed");
    b.start(claim, 30);
    b.finish(claim, RunResult.builder(30, 60).build());
    Coordination back = join("a");
    waitFor("the result waits for a's return", () -> back.results().size() == 1);
    waitFor("a's other job is queued again", () -> queued(b, new JobRef("a", "waiting")));
  }

  @Test
  void oneLeaderPublishesAllowancesAndLeadershipMovesWhenItLeaves() {
    Coordination a = join("a");
    Coordination b = join("b");
    waitFor("one leader", () -> a.isLeader() ^ b.isLeader());
    Coordination leader = a.isLeader() ? a : b;
    Coordination follower = leader == a ? b : a;
    Allowances plan = new Allowances(leader.site(), 1, leader.now(),
        Map.of("a", new Allowances.Allowance(0, 3600), "b", new Allowances.Allowance(3600, 0)));
    leader.publishAllowances(plan);
    waitFor("the follower reads them", () -> follower.allowances().equals(plan));
    assertEquals(Kind.FORBIDDEN, assertThrows(CoordinationException.class,
        () -> follower.publishAllowances(new Allowances(follower.site(), 1, 0, Map.of()))).kind());
    leader.close();
    waitFor("the follower takes over", follower::isLeader);
  }

  @Test
  void acknowledgingManyResultsCreditsTheirExecutorInBatchesWithoutLosingOne() {
    Coordination a = join("a");
    Coordination b = join("b");
    int n = 230;
    for (int i = 0; i < n; i++) {
      a.publish(job("a", "k" + i, i));
    }
    waitFor("b sees all", () -> b.queue().size() == n);
    double work = 0;
    for (int i = 0; i < n; i++) {
      Claim claim = b.claim(new JobRef("a", "k" + i)).orElseThrow();
      b.start(claim, 1000 + i);
      b.finish(claim, RunResult.builder(1000 + i, 1000 + 2 * i + 1).build());
      work += (i + 1) * 2;
    }
    waitFor("a sees all results", () -> a.results().size() == n);
    assertEquals(0, b.ledgers().get("b").jobsExecuted(), "nothing credited before the home accepts");
    assertEquals(n, a.acknowledge(a.results()));
    assertEquals(work, b.ledgers().get("b").contribution().get(Utility.SIMPL).at(0), 1e-6);
    assertEquals(work, a.ledgers().get("a").utility().get(Utility.SIMPL).at(0), 1e-6);
    assertEquals(n, b.ledgers().get("b").jobsExecuted());
    assertEquals(n, a.ledgers().get("a").jobsSubmitted());
  }
}
