package org.coalition.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.coalition.coordination.Inputs;
import org.coalition.coordination.JobSpec;
import org.coalition.coordination.MutableClock;
import org.coalition.coordination.SiteInfo;
import org.coalition.coordination.SiteStatus;
import org.coalition.coordination.memory.InMemoryCoordination;
import org.coalition.coordination.memory.InMemoryFederation;
import org.coalition.daemon.base.BrokerSettings;
import org.coalition.daemon.base.PilotReuse;
import org.coalition.daemon.executor.Pilots;
import org.coalition.daemon.home.FinishedJob;
import org.coalition.daemon.outputs.OutputFetch;
import org.coalition.daemon.outputs.OutputFetches;
import org.coalition.daemon.outputs.RunOutputs;
import org.coalition.daemon.pilot.PilotAgent;
import org.coalition.daemon.pilot.PilotService.Assignment;
import org.coalition.daemon.pilot.PilotService.PilotRefused;
import org.coalition.daemon.pilot.PilotService.RunOutcome;
import org.coalition.handler.HandlerException;
import org.coalition.handler.PilotHandle;
import org.coalition.handler.PilotSpec;
import org.coalition.handler.PilotState;
import org.coalition.job.JobLayout;
import org.coalition.periodic.BalancingPeriod;
import org.coalition.policy.fairness.Utility;
import org.coalition.testbed.Ports;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The broker's rounds on the in-memory coordination and a hand-written batch system, with time
 * moved by hand: no processes, no sleeps. Two sites: {@code home} publishes, {@code exec} runs.
 */
class BrokerTest {
  private static final Duration PUBLISH_AFTER = Duration.ofSeconds(30);
  private static final Duration PENDING_LIMIT = Duration.ofMinutes(10);

  @TempDir Path tmp;
  private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
  private FakeBatch homeBatch;
  private FakeBatch execBatch;
  private Broker home;
  private Broker exec;
  private BalancingPeriod homePeriod;
  private BalancingPeriod execPeriod;
  /** Where exec's daemon would serve large outputs: nothing listens there until a test starts a server. */
  private final int execPort = Ports.free();
  private RunOutputs execOutputs;
  private InMemoryFederation federation;

  @BeforeEach
  void sites() {
    InMemoryFederation fed = new InMemoryFederation(clock);
    homeBatch = new FakeBatch(4);
    homeBatch.allocatedCores = 4; // full: its users' jobs have no room
    homeBatch.concurrentCalls = 2;
    execBatch = new FakeBatch(8);
    InMemoryCoordination hc = fed.connect("home");
    InMemoryCoordination ec = fed.connect("exec");
    federation = fed;
    home = new Broker(settings("home", "local:home"), hc, homeBatch, Optional.of(homeBatch), new RunOutputs(tmp.resolve("home")), clock);
    String execEndpoint = "http://127.0.0.1:" + execPort + "/";
    execOutputs = new RunOutputs(tmp.resolve("exec"), execEndpoint);
    exec = new Broker(settings("exec", execEndpoint), ec, execBatch, Optional.empty(), execOutputs, clock);
    home.start();
    exec.start();
    homePeriod = new BalancingPeriod(hc);
    execPeriod = new BalancingPeriod(ec);
  }

  static BrokerSettings settings(String site, String endpoint) {
    return TestSettings.builder(site).endpoint(endpoint).participation(1_000_000).utility(Utility.SIMPL).accounts(Map.of(), "fed")
        .publishAfter(PUBLISH_AFTER).pilotPendingLimit(PENDING_LIMIT).heartbeat(Duration.ofSeconds(1)).maxPendingPilots(4).build();
  }

  /** One balancing period (allowances), then one round of each broker. */
  private void round() {
    homePeriod.run();
    execPeriod.run();
    home.tick();
    exec.tick();
  }

  @Test
  void aJobIsPublishedOnlyAfterWaitingPublishAfterWithNoRoomAndThenRunsElsewhere() {
    homeBatch.userJob("7", 2);
    round();
    assertFalse(homeBatch.jobs.get("7").held(), "waited 0 s of 30 s: stays home");
    assertEquals(List.of(), execBatch.submitted);

    clock.advance(PUBLISH_AFTER.minusSeconds(1));
    round();
    assertFalse(homeBatch.jobs.get("7").held(), "waited 29 s of 30 s: stays home");

    clock.advance(Duration.ofSeconds(2));
    home.tick();
    assertTrue(homeBatch.jobs.get("7").held(), "waited 31 s with no room: parked before it is published");
    exec.tick();
    assertEquals(1, execBatch.submitted.size(), "the executor submits a pilot shaped like the job");
    assertEquals(2, execBatch.submitted.get(0).cores());
    assertEquals(0, execBatch.submitted.get(0).memoryMb(), "a job that names no memory gets the executor's default");
    assertEquals("fed", execBatch.submitted.get(0).account());
    assertEquals(PilotSpec.DISCARD, execBatch.submitted.get(0).output(), "no pilots.output: its batch output is not kept");

    Map<String, String> env = execBatch.submitted.get(0).environment();
    String pilot = env.get(PilotAgent.ID);
    String token = env.get(PilotAgent.TOKEN);
    Assignment a = exec.work(pilot, token).orElseThrow();
    assertEquals("home/7", a.job());
    assertEquals("#!/bin/sh\necho 7\n", a.script());
    home.tick();
    assertEquals(List.of("in the federation's queue since 2026-01-01 00:00:31 UTC, held here meanwhile",
        "running at exec since 2026-01-01 00:00:31 UTC, held here meanwhile"), homeBatch.notes.get("7"), "the user sees where the job is");
    assertEquals(Map.of("running", 1), nonZero(exec.pilotsByState()));

    assertThrows(PilotRefused.class, () -> exec.heartbeat(pilot, token), "the token in the pilot's environment is void once it has its job");
    clock.advance(Duration.ofSeconds(5));
    exec.finish(pilot, a.token(), new RunOutcome(0, 5, 3, "seven\n".getBytes(StandardCharsets.UTF_8), new byte[0]));
    home.tick();
    assertEquals(3, homeBatch.replayed.get("7").exitCode(), "the home replays the remote run with its exit code");
    assertEquals("seven\n", new String(homeBatch.replayed.get("7").stdout(), StandardCharsets.UTF_8));
    assertEquals("ran at exec for 5 s, replayed here at 2026-01-01 00:00:36 UTC", homeBatch.notes.get("7").get(2));
    FinishedJob f = home.finished("7").orElseThrow();
    assertEquals("exec", f.executor());
    assertEquals("replayed", f.outcome());
  }

  @Test
  void aJobsMemoryTravelsWithItAndItsPilotAsksForItAndItsOwnJvmsShare() {
    homeBatch.userJob("7", 2, 3000);
    round();
    clock.advance(PUBLISH_AFTER.plusSeconds(1));
    round();
    assertEquals(1, execBatch.submitted.size(), "a pilot for job 7: " + execBatch.submitted);
    assertEquals(3000 + Pilots.MEMORY_MARGIN_MB, execBatch.submitted.get(0).memoryMb(), "job 7's 3000 MiB and the pilot's own");
  }

  @Test
  void aJobThatCannotRunElsewhereAsItAsksStaysHomeAndItsUserIsToldWhy() {
    homeBatch.userJob("7", 2, 0, "it asks for gpu:1 per task; ask for it per node (--gres) to run elsewhere");
    round();
    clock.advance(PUBLISH_AFTER.plusSeconds(1));
    round();
    round();
    assertFalse(homeBatch.jobs.get("7").held(), "never parked");
    assertEquals(List.of(), execBatch.submitted, "never published: no pilot anywhere");
    assertEquals(List.of("stays here: it asks for gpu:1 per task; ask for it per node (--gres) to run elsewhere"), homeBatch.notes.get("7"),
        "told once, in its comment");
  }

  @Test
  void anExecutorWhoseNodesAreTooSmallForAJobSubmitsNoPilotForIt() {
    execBatch.nodeMemoryMb = 3000; // 3000 MiB for the job and the pilot's own does not fit
    homeBatch.userJob("7", 2, 3000);
    round();
    clock.advance(PUBLISH_AFTER.plusSeconds(1));
    round();
    assertTrue(homeBatch.jobs.get("7").held(), "published");
    assertEquals(List.of(), execBatch.submitted, "no node of exec holds it");
    execBatch.nodeMemoryMb = 4000;
    round();
    assertEquals(1, execBatch.submitted.size(), "a bigger node holds it: " + execBatch.submitted);
  }

  /**
   * Issue #49's attack 8: a home's record says how large a job's inputs are, and an executor that
   * fetched up to that wrote 3.16 GB for a job declaring 1 TiB, three times its own 1 GiB limit.
   * A job whose inputs pass this site's own staging.max-job gets no pilot here; one within it does.
   */
  @Test
  void aJobWhoseInputsPassThisSitesOwnLimitGetsNoPilotHere() {
    InMemoryCoordination far = federation.connect("far");
    far.join(new SiteInfo("far", "local:far", 1), new SiteStatus("far", 1, 1e6, 2, 1, 1_000_000));
    String sha = "0".repeat(64);
    far.publish(List.of(JobSpec.builder("huge", "far").cores(1).walltimeSeconds(600).inputs(new Inputs(sha, Inputs.MAX_BYTES)).build()));
    round();
    round();
    assertEquals(List.of(), execBatch.submitted, "1 TiB of inputs is over exec's own 1 GiB");
    far.publish(List.of(JobSpec.builder("small", "far").cores(1).walltimeSeconds(600).inputs(new Inputs(sha, 1000)).build()));
    round();
    assertEquals(1, execBatch.submitted.size(), "1,000 bytes are within it: " + execBatch.submitted);
  }

  @Test
  void aGpuJobIsOfferedOnlyWhereANodeHasTheGpuAndItsPilotAsksForIt() {
    JobLayout gpu = new JobLayout(1, 2, Map.of("gpu", 1));
    homeBatch.userJob("7", 2, gpu);
    round();
    clock.advance(PUBLISH_AFTER.plusSeconds(1));
    round();
    assertTrue(homeBatch.jobs.get("7").held(), "published");
    assertEquals(List.of(), execBatch.submitted, "exec has no GPU");
    execBatch.nodeGres = Map.of("gpu", 2);
    round();
    assertEquals(1, execBatch.submitted.size(), "a node of exec has two: " + execBatch.submitted);
    assertEquals(gpu, execBatch.submitted.get(0).layout());
    assertEquals(1, execBatch.submitted.get(0).coresPerTask());
  }

  @Test
  void aJobOfSeveralNodesIsOfferedOnlyByASiteWhoseFileSaysItRunsThem() {
    BrokerSettings s = settings("wide", "local:wide");
    FakeBatch wideBatch = new FakeBatch(8);
    Broker wide = new Broker(s.toBuilder().multiNode(true).build(), federation.connect("wide"), wideBatch, Optional.empty(),
        new RunOutputs(tmp.resolve("wide"), "http://127.0.0.1:" + execPort + "/"), clock);
    wide.start();
    execBatch.nodes = 2;
    wideBatch.nodes = 2;
    JobLayout twoNodes = new JobLayout(2, 2, Map.of());
    homeBatch.userJob("7", 2, twoNodes);
    for (int i = 0; i < 3; i++) {
      round();
      wide.tick();
      clock.advance(PUBLISH_AFTER.plusSeconds(1));
    }
    assertTrue(homeBatch.jobs.get("7").held(), "published");
    assertEquals(List.of(), execBatch.submitted, "exec's nodes hold it, but its file does not say its pilots' scratch is shared");
    assertEquals(1, wideBatch.submitted.size(), "pilots.multi-node: true");
    assertEquals(twoNodes, wideBatch.submitted.get(0).layout());
  }

  @Test
  void aRunThatCannotBeReplayedNowWaitsAndIsReplayedOnceNotDropped() {
    homeBatch.userJob("7", 2);
    round();
    clock.advance(PUBLISH_AFTER.plusSeconds(1));
    round();
    Map<String, String> env = execBatch.submitted.get(0).environment();
    Assignment a = exec.work(env.get(PilotAgent.ID), env.get(PilotAgent.TOKEN)).orElseThrow();
    exec.finish(env.get(PilotAgent.ID), a.token(), new RunOutcome(0, 5, 0, "seven\n".getBytes(StandardCharsets.UTF_8), new byte[0]));

    homeBatch.replayFails = new HandlerException(HandlerException.Category.UNAVAILABLE, "No space left on device");
    home.tick();
    home.tick();
    assertFalse(homeBatch.replayed.containsKey("7"), "the disk is full: the result waits");
    assertTrue(home.finished("7").isEmpty(), "and is not counted as dropped");
    assertEquals(1, home.coordination().results().size(), "it stays in the federation, unacknowledged");

    homeBatch.replayFails = null;
    home.tick();
    assertEquals("seven\n", new String(homeBatch.replayed.get("7").stdout(), StandardCharsets.UTF_8), "room again: replayed whole, once");
    assertEquals("replayed", home.finished("7").orElseThrow().outcome());
    assertEquals(0, home.coordination().results().size());
  }

  @Test
  void aLargeOutputWhoseExecutorDoesNotAnswerWaitsAndIsReplayedWholeOnceItAnswers() throws Exception {
    jobRanAtExecWithALargeOutput();

    home.tick();
    assertFalse(homeBatch.replayed.containsKey("7"), "exec's daemon does not answer: the result waits, it is not replayed without its output");
    clock.advance(Duration.ofSeconds(5));
    home.tick();
    assertFalse(homeBatch.replayed.containsKey("7"), "still no answer: still waiting");

    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", execPort), 0);
    server.createContext("/v1/outputs/", x -> {
      Path file = execOutputs.served(x.getRequestURI().getPath().substring("/v1/outputs/".length())).orElseThrow();
      byte[] body = Files.readAllBytes(file);
      x.sendResponseHeaders(200, body.length);
      x.getResponseBody().write(body);
      x.close();
    });
    server.start();
    try {
      clock.advance(Duration.ofSeconds(16));
      home.tick();
    } finally {
      server.stop(0);
    }
    assertEquals(100_000, homeBatch.replayed.get("7").stdout().length, "replayed with the whole output once exec's daemon answers");
    assertEquals("replayed", home.finished("7").orElseThrow().outcome());
  }

  /**
   * Issue #49's attack 2: an executor whose daemon takes the connection and never answers held
   * the home's round for the fetch's whole bound (120 s, and 128 s more for files the result did
   * not have), two such results for 496 s. The fetch runs off the round's thread now: each round
   * ends within a moment of its own work while the fetch waits, and the output is replayed once
   * it arrives.
   */
  @Test
  void anExecutorThatNeverAnswersHoldsNoRoundOfItsHome() throws Exception {
    jobRanAtExecWithALargeOutput();
    List<Socket> held = Collections.synchronizedList(new ArrayList<>());
    Thread accepting;
    try (ServerSocket silent = new ServerSocket(execPort, 50, InetAddress.getLoopbackAddress())) {
      accepting = new Thread(() -> {
        try {
          while (true) {
            held.add(silent.accept()); // takes the home's connection and says nothing
          }
        } catch (IOException e) {
          // closed: the test is over
        }
      });
      accepting.setDaemon(true);
      accepting.start();
      long longest = 0;
      for (int i = 0; i < 5; i++) {
        long t0 = System.nanoTime();
        home.tick();
        longest = Math.max(longest, (System.nanoTime() - t0) / 1_000_000);
      }
      System.out.printf("home rounds while its fetch hangs: the longest took %d ms (the fetch's own bound: %d s)%n", longest,
          OutputFetch.TOTAL_TIME.toSeconds());
      assertTrue(longest < OutputFetches.ROUND_WAIT.toMillis() + 10_000, "a round waited " + longest + " ms for a fetch that never ends");
      assertFalse(held.isEmpty(), "the home did try to fetch the output");
      assertFalse(homeBatch.replayed.containsKey("7"), "not replayed without its output");
    }
    accepting.join(5_000); // the server socket is closed: no more connections taken; the ones held are let go
    synchronized (held) {
      for (Socket s : held) {
        s.close();
      }
    }
  }

  /** Home's job 7 published, run at exec and finished there with 100,000 bytes of output (too large to travel inline in ZooKeeper). */
  private void jobRanAtExecWithALargeOutput() {
    homeBatch.userJob("7", 2);
    round();
    clock.advance(PUBLISH_AFTER.minusSeconds(1));
    round();
    clock.advance(Duration.ofSeconds(2));
    home.tick();
    exec.tick();
    Map<String, String> env = execBatch.submitted.get(0).environment();
    String token = exec.work(env.get(PilotAgent.ID), env.get(PilotAgent.TOKEN)).orElseThrow().token();
    byte[] big = "x".repeat(100_000).getBytes(StandardCharsets.UTF_8); // too large to travel inline in ZooKeeper
    exec.finish(env.get(PilotAgent.ID), token, new RunOutcome(0, 5, 0, big, new byte[0]));
  }

  @Test
  void aRepeatedReportStoresItsOutputOnceAndHandsInOneResult() throws IOException {
    Map<String, String> env = publishAndSubmitOnePilot();
    String token = exec.work(env.get(PilotAgent.ID), env.get(PilotAgent.TOKEN)).orElseThrow().token();
    byte[] big = new byte[100_000]; // stored in the spool, not inline
    for (int i = 0; i < 3; i++) {
      exec.finish(env.get(PilotAgent.ID), token, new RunOutcome(0, 5, 0, big, new byte[0]));
    }
    try (var stored = Files.list(tmp.resolve("exec"))) {
      assertEquals(1, stored.count(), "three reports, one output stored");
    }
    assertEquals(1, home.coordination().results().size());
  }

  @Test
  void aPilotRunsOneJobAndAWrongTokenIsRefused() {
    Map<String, String> env = publishAndSubmitOnePilot();
    String pilot = env.get(PilotAgent.ID);
    assertThrows(PilotRefused.class, () -> exec.work(pilot, "0".repeat(48)), "someone else's token");
    String token = exec.work(pilot, env.get(PilotAgent.TOKEN)).orElseThrow().token();
    PilotRefused again = assertThrows(PilotRefused.class, () -> exec.work(pilot, token));
    assertTrue(again.getMessage().contains("already asked for work"), again::getMessage);
  }

  @Test
  void aRunningPilotWhoseBatchJobEndsUnreportedGivesItsJobBack() {
    Map<String, String> env = publishAndSubmitOnePilot();
    exec.work(env.get(PilotAgent.ID), env.get(PilotAgent.TOKEN)).orElseThrow();
    assertTrue(exec.coordination().queue().isEmpty(), "claimed: out of the queue");
    home.tick();
    execBatch.pilots.put(execBatch.lastPilot(), PilotState.FAILED);
    exec.tick();
    assertEquals(List.of("home/7"), exec.coordination().queue().stream().map(j -> j.ref().toString()).toList(),
        "released: back in the queue for another pilot");
    assertEquals(Map.of(), nonZero(exec.pilotsByState()), "the pilot is forgotten");
    home.tick();
    List<String> notes = homeBatch.notes.get("7");
    assertTrue(notes.get(notes.size() - 2).startsWith("running at exec since ") && notes.get(notes.size() - 1).startsWith(
        "back in the federation's queue since "), "the user is told the run was given up: " + notes);
  }

  @Test
  void aPilotThatNeverCalledWithItsJobsTokenNeverGotItsJobAndItsReleaseSaysSo() {
    Map<String, String> env = publishAndSubmitOnePilot();
    exec.work(env.get(PilotAgent.ID), env.get(PilotAgent.TOKEN)).orElseThrow(); // the answer is lost on its way: no call follows
    execBatch.pilots.put(execBatch.lastPilot(), PilotState.COMPLETED);
    exec.tick();
    assertEquals(Map.of("claim directcontr", 1L, "release never-confirmed", 1L), only(exec.decisions().counts(), "claim", "release"));
  }

  @Test
  void aPilotThatHeartbeatWithItsJobsTokenGotItsJobAndItsReleaseIsARunLost() {
    Map<String, String> env = publishAndSubmitOnePilot();
    String token = exec.work(env.get(PilotAgent.ID), env.get(PilotAgent.TOKEN)).orElseThrow().token();
    assertTrue(exec.heartbeat(env.get(PilotAgent.ID), token));
    execBatch.pilots.put(execBatch.lastPilot(), PilotState.FAILED);
    exec.tick();
    assertEquals(Map.of("claim directcontr", 1L, "release pilot-ended", 1L), only(exec.decisions().counts(), "claim", "release"));
  }

  @Test
  void aStoppingDaemonHandsOutNoWork() {
    Map<String, String> env = publishAndSubmitOnePilot();
    exec.stopHandingOutWork();
    assertTrue(exec.work(env.get(PilotAgent.ID), env.get(PilotAgent.TOKEN)).isEmpty(), "no job: the answer might not reach the pilot");
    assertEquals(1, exec.coordination().queue().size(), "the job stays in the queue, unclaimed");
    assertEquals(1L, exec.decisions().counts().get("idle-pilot stopping"));
  }

  /** The counts of the decisions whose kind is one of {@code kinds}. */
  static Map<String, Long> only(Map<String, Long> counts, String... kinds) {
    Map<String, Long> out = new TreeMap<>(counts);
    out.keySet().removeIf(k -> List.of(kinds).stream().noneMatch(kind -> k.startsWith(kind + " ")));
    return out;
  }

  @Test
  void aPilotStillPendingAfterItsLimitIsCancelledAndAnotherTakesItsPlace() {
    publishAndSubmitOnePilot();
    PilotHandle first = execBatch.lastPilot();
    clock.advance(PENDING_LIMIT.minusSeconds(1));
    exec.tick();
    assertEquals(List.of(), execBatch.cancelled, "not yet past the limit");
    clock.advance(Duration.ofSeconds(2));
    exec.tick();
    assertEquals(List.of(first), execBatch.cancelled);
    assertEquals(2, execBatch.submitted.size(), "the job still waits: a new pilot goes into the queue");
  }

  @Test
  void aPublishedJobIsWithdrawnWhenRoomAppearsAtHomeBeforeAnyClaim() {
    publishAndSubmitOnePilot();
    assertTrue(homeBatch.jobs.get("7").held());
    homeBatch.allocatedCores = 0;
    home.tick();
    assertFalse(homeBatch.jobs.get("7").held(), "unparked: it runs at home");
    assertTrue(home.coordination().queue().isEmpty(), "withdrawn from the federation");
  }

  @Test
  void aPilotThatAsksBeforeItsSubmissionReturnsGetsItsJob() {
    homeBatch.userJob("7", 2);
    round();
    clock.advance(PUBLISH_AFTER.plusSeconds(1));
    homePeriod.run();
    execPeriod.run();
    home.tick();
    AtomicReference<Optional<Assignment>> asked = new AtomicReference<>();
    execBatch.onSubmit = spec -> asked.set(exec.work(spec.environment().get(PilotAgent.ID), spec.environment().get(PilotAgent.TOKEN)));
    exec.tick();
    assertEquals("home/7", asked.get().orElseThrow().job(), "a local pilot starts, and asks, inside submit");
    assertEquals(Map.of("running", 1), nonZero(exec.pilotsByState()), "the late answer to the submission changes nothing");
  }

  @Test
  void pilotsOnTheirWayCountInTheRatioSoNoPilotIsSentPastTheExposureThreshold() {
    for (int i = 1; i <= 12; i++) {
      homeBatch.userJob(Integer.toString(i), 2); // receive allowance for six
    }
    round();
    clock.advance(PUBLISH_AFTER.plusSeconds(1));
    round();
    // 8 idle cores, threshold 0.7, jobs of 2 cores: pilots go while the ratio before each is under it (0, 0.25, 0.5); a fourth
    // would start at 0.75, the ratio at which a pilot that has run a job gives its cores back
    assertEquals(3, execBatch.submitted.size(), "pilots for 6 of 8 cores, not for every free core");
    List<PilotHandle> handles = List.copyOf(execBatch.pilots.keySet());
    execBatch.pilots.put(handles.get(0), PilotState.RUNNING);
    execBatch.pilots.put(handles.get(1), PilotState.RUNNING);
    execBatch.allocatedCores = 4; // two started, the third still pending
    round();
    assertEquals(3, execBatch.submitted.size(), "two started and one on its way: 0.75 is not under 0.7");
  }

  @Test
  void aJobClaimedForAPilotThatLeftMeanwhileGoesBackToTheQueueAtOnce() {
    Map<String, String> env = publishAndSubmitOnePilot();
    PilotHandle handle = execBatch.lastPilot();
    // the pilot's batch job ends while its job is claimed: the pilots round finds no claim to give back yet
    ((InMemoryCoordination) exec.coordination()).afterClaim(c -> {
      execBatch.pilots.put(handle, PilotState.COMPLETED);
      exec.tick();
    });
    assertThrows(PilotRefused.class, () -> exec.work(env.get(PilotAgent.ID), env.get(PilotAgent.TOKEN)));
    assertTrue(exec.coordination().queue().stream().anyMatch(j -> j.ref().toString().equals("home/7")),
        "queued again now, not when the home sees the claim unrenewed");
    assertEquals(1L, exec.decisions().counts().get("release pilot-gone"));
  }

  @Test
  void theResultsOfARoundAreReplayedAsManyAtOnceAsTheHomeQueueTakes() throws InterruptedException {
    for (String id : List.of("7", "8", "9", "10")) {
      homeBatch.userJob(id, 2); // receive allowance for two
    }
    round();
    clock.advance(PUBLISH_AFTER.plusSeconds(1));
    round();
    assertEquals(2, execBatch.submitted.size());
    for (PilotSpec spec : execBatch.submitted) {
      String id = spec.environment().get(PilotAgent.ID);
      Assignment a = exec.work(id, spec.environment().get(PilotAgent.TOKEN)).orElseThrow();
      exec.finish(id, a.token(), new RunOutcome(0, 1, 0, new byte[0], new byte[0]));
    }
    // each replay waits for the other to begin: one after the other, the first would wait in vain
    CountDownLatch begun = new CountDownLatch(2);
    AtomicBoolean together = new AtomicBoolean(true);
    homeBatch.onReplay = id -> {
      begun.countDown();
      try {
        together.compareAndSet(true, begun.await(5, TimeUnit.SECONDS));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    };
    home.tick();
    assertEquals(2, homeBatch.replayed.size(), "replayed: " + homeBatch.replayed.keySet());
    assertTrue(together.get(), "both replays were under way at once");
  }

  @Test
  void aSiteThatKeepsPilotsOutputGivesEachPilotAFileOfItsOwnThere() {
    BrokerSettings kept = settings("exec", "local:exec").toBuilder().pilotOutput("/var/log/coalition/pilots").build();
    assertEquals("/var/log/coalition/pilots/coalition-pilot-exec-3-ab12.out", kept.pilotOutputFile("exec-3-ab12"));
    assertEquals(PilotSpec.DISCARD, settings("exec", "local:exec").pilotOutputFile("exec-3-ab12"));
    assertEquals("/var/log/coalition/pilots", kept.toBuilder().reuse(new PilotReuse(Duration.ofSeconds(5), Duration.ZERO)).build().pilotOutput(),
        "kept with other settings changed");
  }

  /** Publishes home's job 7 and lets exec submit one pilot for it; the pilot's environment. */
  private Map<String, String> publishAndSubmitOnePilot() {
    homeBatch.userJob("7", 2);
    round();
    clock.advance(PUBLISH_AFTER.plusSeconds(1));
    round();
    assertEquals(1, execBatch.submitted.size());
    return execBatch.submitted.get(0).environment();
  }

  static Map<String, Integer> nonZero(Map<String, Integer> counts) {
    Map<String, Integer> out = new TreeMap<>(counts);
    out.values().removeIf(v -> v == 0);
    return out;
  }
}
