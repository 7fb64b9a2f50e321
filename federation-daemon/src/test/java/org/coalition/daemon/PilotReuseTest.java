package org.coalition.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.coalition.coordination.MutableClock;
import org.coalition.coordination.memory.InMemoryCoordination;
import org.coalition.coordination.memory.InMemoryFederation;
import org.coalition.daemon.base.BoughtSlots;
import org.coalition.daemon.base.PilotReuse;
import org.coalition.daemon.base.SoldSlots.Slot;
import org.coalition.daemon.outputs.RunOutputs;
import org.coalition.daemon.pilot.PilotAgent;
import org.coalition.daemon.pilot.PilotService.Assignment;
import org.coalition.daemon.pilot.PilotService.PilotRefused;
import org.coalition.daemon.pilot.PilotService.RunOutcome;
import org.coalition.handler.HomeJob;
import org.coalition.handler.PilotSpec;
import org.coalition.handler.PilotState;
import org.coalition.periodic.BalancingPeriod;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pilots that run several jobs (docs/decisions/0013-fast-in-fast-out.md, step 2), on the in-memory
 * coordination and hand-written batch systems: late binding at each ask, a wait for work woken by
 * the queue, the cores going back to local users, and pilots in a slot the site sold.
 */
class PilotReuseTest {
  private static final Duration IDLE_EXIT = Duration.ofMillis(300);

  @TempDir Path tmp;
  private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
  private FakeBatch homeBatch;
  private FakeBatch execBatch;
  private Broker home;
  private Broker exec;
  private BalancingPeriod homePeriod;
  private BalancingPeriod execPeriod;
  private InMemoryFederation fed;

  @BeforeEach
  void sites() {
    sites(new PilotReuse(IDLE_EXIT, Duration.ofMinutes(10)));
  }

  private void sites(PilotReuse reuse) {
    sites(reuse, false);
  }

  /** Both sites, anew, their pilots reused as {@code reuse} says; the executor's batch system preempts pilots when {@code preempts}. */
  private void sites(PilotReuse reuse, boolean preempts) {
    sites(reuse, preempts, 1_000_000);
  }

  private void sites(PilotReuse reuse, boolean preempts, double execParticipation) {
    fed = new InMemoryFederation(clock);
    homeBatch = new FakeBatch(4);
    homeBatch.allocatedCores = 4;
    execBatch = new FakeBatch(8);
    InMemoryCoordination hc = fed.connect("home");
    InMemoryCoordination ec = fed.connect("exec");
    String run = Long.toString(System.nanoTime());
    home = new Broker(BrokerTest.settings("home", "local:home").toBuilder().reuse(reuse).build(), hc, homeBatch, Optional.of(homeBatch),
        new RunOutputs(tmp.resolve(run).resolve("home")), clock);
    exec = new Broker(BrokerTest.settings("exec", "local:exec").toBuilder().reuse(reuse).participation(execParticipation)
        .batchSystemEvicts(preempts).build(), ec, execBatch, Optional.empty(),
        new RunOutputs(tmp.resolve(run).resolve("exec")), clock);
    home.start();
    exec.start();
    homePeriod = new BalancingPeriod(hc);
    execPeriod = new BalancingPeriod(ec);
  }

  private void round() {
    homePeriod.run();
    execPeriod.run();
    home.tick();
    exec.tick();
  }

  /** Job {@code id} of {@code cores} waits at home past publish-after and is published. */
  private void publish(String id, int cores) {
    homeBatch.userJob(id, cores);
    round();
    clock.advance(Duration.ofSeconds(31));
    homePeriod.run();
    home.tick();
  }

  private static RunOutcome ran(String out) {
    return new RunOutcome(0, 1, 0, out.getBytes(StandardCharsets.UTF_8), new byte[0]);
  }

  @Test
  void aPilotRunsJobAfterJobEachBoundWhenItAsksAndExitsWhenNoneIsLeft() {
    publish("1", 2);
    exec.tick();
    assertEquals(1, execBatch.submitted.size());
    Map<String, String> env = execBatch.submitted.get(0).environment();
    assertEquals(Long.toString(IDLE_EXIT.toMillis()), env.get(PilotAgent.IDLE_EXIT), "the pilot knows how long to wait for work");
    assertEquals(3600 + 600 + 60, execBatch.submitted.get(0).walltimeSeconds(), "its first job's limit, the extra time and the margin");
    String pilot = env.get(PilotAgent.ID);
    Assignment first = exec.work(pilot, env.get(PilotAgent.TOKEN)).orElseThrow();
    assertEquals("home/1", first.job());
    publish("2", 2);
    exec.finish(pilot, first.token(), ran("one\n"));
    Assignment second = exec.work(pilot, first.token()).orElseThrow();
    assertEquals("home/2", second.job(), "the same pilot takes the next job, bound as it asks");
    assertEquals(1, execBatch.submitted.size(), "no pilot was submitted for the second job: the first one took it");
    exec.finish(pilot, second.token(), ran("two\n"));
    long asked = System.nanoTime();
    assertEquals(Optional.empty(), exec.work(pilot, second.token()), "no job left");
    assertTrue(System.nanoTime() - asked >= IDLE_EXIT.toNanos() * 9 / 10, "it waited its idle time for one");
    home.tick();
    assertEquals("one\n", new String(homeBatch.replayed.get("1").stdout(), StandardCharsets.UTF_8));
    assertEquals("two\n", new String(homeBatch.replayed.get("2").stdout(), StandardCharsets.UTF_8));
  }

  @Test
  void aPilotWaitingForWorkIsWokenByAJobPublishedMeanwhile() throws Exception {
    PilotReuse patient = new PilotReuse(Duration.ofSeconds(4), Duration.ofMinutes(10));
    sites(patient);
    publish("1", 2);
    exec.tick();
    Map<String, String> env = execBatch.submitted.get(0).environment();
    String pilot = env.get(PilotAgent.ID);
    Assignment first = exec.work(pilot, env.get(PilotAgent.TOKEN)).orElseThrow();
    exec.finish(pilot, first.token(), ran("one\n"));
    long asked = System.nanoTime();
    CompletableFuture<Optional<Assignment>> waiting = CompletableFuture.supplyAsync(() -> exec.work(pilot, first.token()));
    Thread.sleep(200);
    publish("2", 2);
    Optional<Assignment> second = waiting.get(10, TimeUnit.SECONDS);
    double waited = (System.nanoTime() - asked) / 1e9;
    assertEquals("home/2", second.orElseThrow().job(), "woken by the publication");
    assertTrue(waited < 3, "woken at once, not at the end of its wait: " + waited + " s");
  }

  @Test
  void aPilotThatRanAJobTakesNoOtherWhileLocalJobsWaitAndItsCoresGoBack() {
    publish("1", 2);
    exec.tick();
    Map<String, String> env = execBatch.submitted.get(0).environment();
    String pilot = env.get(PilotAgent.ID);
    Assignment first = exec.work(pilot, env.get(PilotAgent.TOKEN)).orElseThrow();
    publish("2", 2);
    execBatch.userJob("local", 4); // a local user's job now waits at exec
    execBatch.allocatedCores = 2;
    exec.tick();
    exec.finish(pilot, first.token(), ran("one\n"));
    assertEquals(Optional.empty(), exec.work(pilot, first.token()), "its cores go back to the local job");
    assertEquals(1L, exec.decisions().counts().get("idle-pilot cores-back"));
    assertTrue(exec.coordination().queue().stream().anyMatch(j -> j.ref().toString().equals("home/2")), "the next job stays queued");
  }

  @Test
  void aPilotTakesNoJobLongerThanTheTimeItHasLeft() {
    sites(new PilotReuse(IDLE_EXIT, Duration.ZERO));
    publish("1", 2);
    exec.tick();
    Map<String, String> env = execBatch.submitted.get(0).environment();
    String pilot = env.get(PilotAgent.ID);
    Assignment first = exec.work(pilot, env.get(PilotAgent.TOKEN)).orElseThrow();
    clock.advance(Duration.ofSeconds(2));
    exec.finish(pilot, first.token(), ran("one\n"));
    publish("2", 2); // an hour's limit, as the first, and the pilot has used 33 s of its hour (no extra time)
    assertEquals(Optional.empty(), exec.work(pilot, first.token()), "one job per pilot when the jobs are alike and there is no extra time");
    assertEquals(1L, exec.decisions().counts().get("idle-pilot no-fitting-job"));
  }

  @Test
  void localJobsWaitingAtAFullSiteEvictForeignRunsWhoseJobsGoBackToTheQueueAndCreditNothing() {
    publish("1", 4);
    publish("2", 4);
    Assignment[] runs = new Assignment[2];
    String[] ids = new String[2];
    for (int i = 0; i < 2; i++) {
      homePeriod.run(); // a period's receive allowance holds one such job: one pilot a period
      execPeriod.run();
      exec.tick();
      Map<String, String> env = execBatch.submitted.get(i).environment();
      ids[i] = env.get(PilotAgent.ID);
      runs[i] = exec.work(ids[i], env.get(PilotAgent.TOKEN)).orElseThrow();
      clock.advance(Duration.ofSeconds(1));
    }
    execBatch.allocatedCores = 8; // both pilots run: the site is full of foreign work
    exec.tick();
    assertEquals(0, execBatch.cancelled.size(), "no local job waits: nothing is evicted");

    execBatch.userJob("local", 2);
    exec.tick();
    assertEquals(1, execBatch.cancelled.size(), "one run is evicted: the ratio without it, 0.5, is under 0.7");
    assertEquals(1L, exec.decisions().counts().get("evict local-demand"));
    assertEquals(false, exec.heartbeat(ids[1], runs[1].token()), "the evicted run stops (the newest: it has done the least)");
    assertTrue(exec.heartbeat(ids[0], runs[0].token()), "the other goes on");
    assertThrows(PilotRefused.class, () -> exec.finish(ids[1], runs[1].token(), ran("late\n")), "an evicted run hands in nothing");

    exec.tick();
    assertEquals(1, execBatch.cancelled.size(), "while its cores come back (the grace), no other run is evicted for the same local job");
    execBatch.allocatedCores = 4;
    exec.tick(); // the batch system says the cancelled pilot ended
    assertEquals(1L, exec.decisions().counts().get("release evicted"));
    assertTrue(exec.coordination().queue().stream().anyMatch(j -> j.ref().toString().equals(runs[1].job())), "its job is queued again");
    exec.finish(ids[0], runs[0].token(), ran("one\n"));
    home.tick();
    assertEquals(1, home.coordination().ledgers().get("home").jobsSubmitted(), "the home's ledger counts the one run that ended, not the evicted");
  }

  @Test
  void aSiteWhoseBatchSystemPreemptsPilotsEvictsNothingItselfAndAPreemptedRunGoesBackToTheQueueCreditingNothing() {
    sites(new PilotReuse(IDLE_EXIT, Duration.ofMinutes(10)), true);
    publish("1", 4);
    homePeriod.run();
    execPeriod.run();
    exec.tick();
    Map<String, String> env = execBatch.submitted.get(0).environment();
    String id = env.get(PilotAgent.ID);
    Assignment run = exec.work(id, env.get(PilotAgent.TOKEN)).orElseThrow();
    assertTrue(exec.heartbeat(id, run.token()), "the run is under way");
    execBatch.allocatedCores = 8;
    execBatch.userJob("local", 2);
    exec.tick();
    assertEquals(0, execBatch.cancelled.size(), "the batch system preempts, not the daemon: two deciders would take twice the cores");
    assertEquals(null, exec.decisions().counts().get("evict local-demand"));

    // Slurm preempts the pilot; the pilot, stopped, reports nothing (PilotAgent); the daemon sees its end
    execBatch.preempt(execBatch.pilots.keySet().iterator().next());
    execBatch.allocatedCores = 2;
    exec.tick();
    assertEquals(1L, exec.decisions().counts().get("release pilot-ended"));
    assertTrue(exec.coordination().queue().stream().anyMatch(j -> j.ref().toString().equals(run.job())), "its job is queued again");
    assertEquals(0, home.coordination().ledgers().get("home").jobsSubmitted(), "the preempted run credits nothing");
  }

  /**
   * A slot sold by a site that shares nothing best effort (participation 0, so the buyer's send
   * allowance is 0 too): the buyer publishes into the slot it bought, and the seller's pilots go
   * into the reservation (seen missing on the testbed, SlurmContractIT).
   */
  @Test
  void aSellerThatSharesNothingBestEffortStillRunsTheBuyersJobsInTheSlot() {
    sites(new PilotReuse(IDLE_EXIT, Duration.ofMinutes(10)), false, 0);
    execBatch.allocatedCores = 8;
    String reservation = "coalition_1_batch_cpu4x1";
    home.boughtSlots().set(List.of(new BoughtSlots.Slot("exec", 4, clock.instant().plus(Duration.ofHours(2)))));
    exec.soldSlots().set(List.of(new Slot("home", reservation, 4, clock.instant().plus(Duration.ofHours(2)))));
    publish("1", 2);
    publish("2", 2);
    assertTrue(home.decisions().counts().containsKey("publish bought-slot"), home.decisions().counts().toString());
    exec.tick();
    assertEquals(List.of(reservation, reservation), execBatch.submitted.stream().map(PilotSpec::reservation).toList(),
        exec.decisions().counts().toString());
  }

  /**
   * A slot this site sold, open (docs/decisions/0020): its buyer's pilots go into the reservation
   * though the site is full, as far as the block's cores go, with no time beyond their jobs', and a
   * local job waiting does not get them evicted.
   */
  @Test
  void theBuyersPilotsGoIntoASoldSlotAsFarAsItsCoresGoAndAreNotEvicted() {
    execBatch.allocatedCores = 8; // full: no pilot goes out on idle capacity
    publish("1", 2);
    publish("2", 2);
    publish("3", 2);
    assertEquals(0, execBatch.submitted.size(), "a full site sends no pilot on idle capacity");

    String reservation = "coalition_1_batch_cpu4x1";
    exec.soldSlots().set(List.of(new Slot("home", reservation, 4, clock.instant().plus(Duration.ofHours(2)))));
    exec.tick();
    assertEquals(List.of(reservation, reservation), execBatch.submitted.stream().map(PilotSpec::reservation).toList(),
        "two pilots of 2 cores fill the block of 4");
    assertEquals(3600 + 60, execBatch.submitted.get(0).walltimeSeconds(), "no time beyond its job's: the slot ends");
    exec.tick();
    assertEquals(2, execBatch.submitted.size(), "the block's cores are taken");
    assertTrue(exec.decisions().counts().containsKey("pilot sold-slot"), exec.decisions().counts().toString());

    for (PilotSpec pilot : execBatch.submitted) {
      Map<String, String> env = pilot.environment();
      exec.work(env.get(PilotAgent.ID), env.get(PilotAgent.TOKEN)).orElseThrow();
    }
    execBatch.userJob("local", 4); // a local user waits, the site is over its threshold
    exec.tick();
    assertEquals(List.of(), execBatch.cancelled, "a pilot in a sold slot runs on the buyer's cores: not evicted for local users");
  }

  /** Homes that share a pool account here do not share the block one of them bought: a pilot in north's slot runs north's jobs only. */
  @Test
  void aPilotInASoldSlotRunsOnlyItsBuyersJobs() {
    FakeBatch westBatch = new FakeBatch(4);
    westBatch.allocatedCores = 4;
    Broker west = new Broker(BrokerTest.settings("west", "local:west"), fed.connect("west"), westBatch, Optional.of(westBatch),
        new RunOutputs(tmp.resolve("west")), clock);
    west.start();
    execBatch.allocatedCores = 8;
    publish("1", 2);
    exec.soldSlots().set(List.of(new Slot("home", "coalition_1_batch_cpu4x1", 2, clock.instant().plus(Duration.ofHours(3)))));
    exec.tick();
    Map<String, String> env = execBatch.submitted.get(0).environment();
    String pilot = env.get(PilotAgent.ID);
    Assignment first = exec.work(pilot, env.get(PilotAgent.TOKEN)).orElseThrow();
    shortJob(westBatch, "w1"); // west's job, run here as the same pool account, short enough for the pilot's time left
    BalancingPeriod westPeriod = new BalancingPeriod(west.coordination());
    for (int i = 0; i < 2; i++) {
      homePeriod.run();
      westPeriod.run();
      west.tick();
      clock.advance(Duration.ofSeconds(31));
    }
    homePeriod.run();
    west.tick();
    assertTrue(exec.coordination().queue().stream().anyMatch(j -> j.home().equals("west")), "west's job is queued");
    exec.finish(pilot, first.token(), ran("one\n"));
    assertEquals(Optional.empty(), exec.work(pilot, first.token()), "the pilot in home's slot does not take west's job");

    execBatch.pilots.replaceAll((h, state) -> PilotState.COMPLETED); // that pilot exited; a new one in the slot takes home's own short job
    shortJob(homeBatch, "2");
    round();
    clock.advance(Duration.ofSeconds(31));
    homePeriod.run();
    home.tick();
    exec.tick();
    assertEquals(2, execBatch.submitted.size(), "a second pilot went into the slot");
    Map<String, String> next = execBatch.submitted.get(execBatch.submitted.size() - 1).environment();
    assertEquals("home/2", exec.work(next.get(PilotAgent.ID), next.get(PilotAgent.TOKEN)).orElseThrow().job(), "its buyer's job, as before");
  }

  /** A ten-minute job of 2 cores waiting at {@code batch}. */
  private static void shortJob(FakeBatch batch, String id) {
    batch.jobs.put(id, HomeJob.builder(id, "alice").cpus(2).timeLimitSeconds(600).build());
    batch.scripts.put(id, "#!/bin/sh\necho " + id + "\n");
  }

  @Test
  void aJobThatWouldOutlastASoldSlotIsNotSentIntoIt() {
    execBatch.allocatedCores = 8;
    publish("1", 2);
    exec.soldSlots().set(List.of(new Slot("home", "coalition_1_batch_cpu4x1", 4, clock.instant().plus(Duration.ofMinutes(30)))));
    exec.tick();
    assertEquals(0, execBatch.submitted.size(), "an hour's job does not fit a slot ending in 30 minutes");
  }
}
