package org.coalition.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.coalition.coordination.MutableClock;
import org.coalition.coordination.memory.InMemoryFederation;
import org.coalition.daemon.base.OperatorSettings;
import org.coalition.daemon.executor.PilotJournal;
import org.coalition.daemon.home.ParkJournal;
import org.coalition.daemon.outputs.RunOutputs;
import org.coalition.daemon.pilot.PilotAgent;
import org.coalition.daemon.pilot.PilotService.Assignment;
import org.coalition.daemon.pilot.PilotService.PilotRefused;
import org.coalition.daemon.pilot.PilotService.RunOutcome;
import org.coalition.handler.PilotState;
import org.coalition.periodic.BalancingPeriod;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A restart of the executing daemon, on the in-memory coordination (docs/decisions/0011): the
 * journal carries its pilots over, the new daemon adopts their claims within the home's restart
 * grace, and the run goes on with the token it had. After the grace the run is told its claim is
 * lost. A pilot still queued when its daemon crashed is served by the next start.
 */
class DaemonRestartTest {
  private static final Duration GRACE = Duration.ofSeconds(60);

  @TempDir Path tmp;
  private final MutableClock clock = new MutableClock(Instant.now());
  private final InMemoryFederation fed = new InMemoryFederation(clock);
  private final FakeBatch homeBatch = new FakeBatch(4);
  private final FakeBatch execBatch = new FakeBatch(8);
  private Broker home;
  private Broker exec;
  private String pilot;
  private String envToken;

  @BeforeEach
  void aPilotIsQueuedAtExecForHomesJob() {
    homeBatch.allocatedCores = 4;
    home = new Broker(BrokerTest.settings("home", "local:home"), fed.connect("home", GRACE), homeBatch, Optional.of(homeBatch),
        new RunOutputs(tmp.resolve("home")), clock);
    exec = execDaemon();
    Map<String, String> env = OnePilot.queue(home, homeBatch, exec, execBatch, clock);
    pilot = env.get(PilotAgent.ID);
    envToken = env.get(PilotAgent.TOKEN);
  }

  /** exec's daemon as it starts: a new session, the same batch system and the same journal. */
  private Broker execDaemon() {
    return new Broker(BrokerTest.settings("exec", "local:exec"), fed.connect("exec"), execBatch, Optional.empty(),
        new RunOutputs(tmp.resolve("exec")), new PilotJournal(tmp.resolve("journal")),
        ParkJournal.in(tmp.resolve("parks")), OperatorSettings.inMemory(), DaemonTls.NONE, clock);
  }

  /** kill -9 and start again: the old session ends (nothing is cancelled, nothing released), a new daemon starts. */
  private void restartExec(Duration down) {
    exec.coordination().close();
    clock.advance(down);
    home.tick();
    exec = execDaemon();
    exec.start();
  }

  @Test
  void aRunGoesOnThroughARestartOfItsDaemonAndEndsAtHomeOnce() {
    Assignment a = exec.work(pilot, envToken).orElseThrow();
    restartExec(Duration.ofSeconds(20));

    assertEquals(Map.of("running", 1), BrokerTest.nonZero(exec.pilotsByState()), "the restarted daemon took its running pilot back");
    assertTrue(exec.heartbeat(pilot, a.token()), "the pilot's heartbeat is answered with its claim adopted");
    assertThrows(PilotRefused.class, () -> exec.heartbeat(pilot, envToken), "the token in the pilot's environment stays void");
    assertEquals(1L, exec.decisions().counts().getOrDefault("adopt restarted", 0L));
    clock.advance(GRACE);
    home.tick();
    assertTrue(exec.heartbeat(pilot, a.token()), "past the home's grace the adopted claim is still this run's");

    exec.finish(pilot, a.token(), new RunOutcome(0, 5, 3, "seven\n".getBytes(StandardCharsets.UTF_8), new byte[0]));
    home.tick();
    assertEquals(3, homeBatch.replayed.get("7").exitCode(), "the home replays the one run, with its exit code");
    assertEquals("exec", home.finished("7").orElseThrow().executor());
    assertEquals(List.of(), execBatch.cancelled, "nothing was cancelled");
    assertEquals(1, execBatch.submitted.size(), "no second pilot: the job was never requeued");
  }

  @Test
  void aRestartLongerThanTheHomesGraceCostsTheRunAndTheJobIsQueuedAgain() {
    Assignment a = exec.work(pilot, envToken).orElseThrow();
    restartExec(GRACE.plusSeconds(1));

    assertFalse(exec.heartbeat(pilot, a.token()), "the home requeued the job: the pilot is told to kill its run");
    assertEquals(1L, exec.decisions().counts().getOrDefault("kill-run claim-lost-in-restart", 0L));
    assertTrue(exec.coordination().queue().stream().anyMatch(j -> j.ref().toString().equals("home/7")), "the job is back in the queue");
    assertThrows(RuntimeException.class, () -> exec.finish(pilot, a.token(),
        new RunOutcome(0, 5, 0, new byte[0], new byte[0])), "a late report of the lost run is refused");
    home.tick();
    assertFalse(homeBatch.replayed.containsKey("7"), "the lost run is not replayed");
  }

  /**
   * The race the container tier's soak met (stop 61's CI): the run's result is handed in and the
   * daemon crashes before its journal says so. The restarted daemon finds the result in: it
   * neither kills a run nor gives a claim back, and the home replays the one run.
   */
  @Test
  void aRunReportedJustBeforeACrashIsFoundReportedAndNothingIsLost() throws IOException {
    Assignment a = exec.work(pilot, envToken).orElseThrow();
    assertTrue(exec.heartbeat(pilot, a.token()));
    Path journal = tmp.resolve("journal");
    Map<Path, byte[]> before = new HashMap<>();
    try (Stream<Path> files = Files.list(journal)) {
      for (Path f : files.toList()) {
        before.put(f, Files.readAllBytes(f));
      }
    }
    exec.finish(pilot, a.token(), new RunOutcome(0, 5, 3, "seven\n".getBytes(StandardCharsets.UTF_8), new byte[0]));
    for (Map.Entry<Path, byte[]> f : before.entrySet()) {
      Files.write(f.getKey(), f.getValue()); // the crash came between the result's write and the journal's
    }
    exec.coordination().close(); // kill -9, and a start before the home has taken the result in
    clock.advance(Duration.ofSeconds(5));
    exec = execDaemon();
    exec.start();

    assertEquals(Map.of("adopt reported-before-restart", 1L), BrokerTest.only(exec.decisions().counts(), "adopt", "release", "kill-run"),
        "found reported: no run killed, no claim given back");
    execBatch.pilots.put(execBatch.lastPilot(), PilotState.COMPLETED);
    exec.tick();
    assertEquals(Map.of("adopt reported-before-restart", 1L), BrokerTest.only(exec.decisions().counts(), "adopt", "release", "kill-run"),
        "its batch job's end after its report gives nothing back");
    home.tick();
    assertEquals(3, homeBatch.replayed.get("7").exitCode(), "the home replays the one run");
    assertEquals(1, execBatch.submitted.size(), "no second pilot: the job was never requeued");
  }

  @Test
  void aHandOffNotYetConfirmedWhenItsDaemonCrashedIsStillOneAfterAndItsEndSaysNoRunBegan() {
    exec.work(pilot, envToken).orElseThrow(); // the answer is lost with the daemon: the pilot never calls with its job's token
    restartExec(Duration.ofSeconds(5));

    assertEquals(Map.of("running", 1), BrokerTest.nonZero(exec.pilotsByState()), "the hand-off holds its claim through the restart");
    execBatch.pilots.put(execBatch.lastPilot(), PilotState.COMPLETED);
    exec.tick();
    assertEquals(1L, exec.decisions().counts().getOrDefault("release never-confirmed", 0L), "the journal kept that it was not confirmed");
    assertTrue(exec.coordination().queue().stream().anyMatch(j -> j.ref().toString().equals("home/7")), "the job is back in the queue");
  }

  @Test
  void aConfirmedRunWhoseBatchJobEndsUnreportedAfterARestartIsARunLost() {
    Assignment a = exec.work(pilot, envToken).orElseThrow();
    assertTrue(exec.heartbeat(pilot, a.token()));
    restartExec(Duration.ofSeconds(5));

    exec.tick(); // the round adopts the claim
    execBatch.pilots.put(execBatch.lastPilot(), PilotState.FAILED);
    exec.tick();
    assertEquals(Map.of("adopt restarted", 1L, "release pilot-ended", 1L), BrokerTest.only(exec.decisions().counts(), "adopt", "release"));
  }

  @Test
  void aPendingPilotOutlivesACrashOfItsDaemonAndTheNextStartServesIt() {
    restartExec(Duration.ofSeconds(5));

    assertEquals(Map.of("pending", 1), BrokerTest.nonZero(exec.pilotsByState()));
    Assignment a = exec.work(pilot, envToken).orElseThrow();
    assertEquals("home/7", a.job(), "the pilot queued before the crash gets its job from the new daemon");
    exec.tick();
    assertEquals(1, execBatch.submitted.size(), "the restarted daemon does not submit a second pilot for the job");
  }

  @Test
  void aCleanStopCancelsAPendingPilot() {
    SiteDaemon.start(exec, Duration.ofHours(1), Duration.ofHours(1)).close();
    assertEquals(List.of(execBatch.lastPilot()), execBatch.cancelled, "a daemon stopped for good leaves no pilot to start and find no one");
    restartExec(Duration.ofSeconds(5));
    exec.tick();
    assertThrows(PilotRefused.class, () -> exec.work(pilot, envToken), "the restarted daemon forgot the cancelled pilot");
  }

  @Test
  void aCleanStopLeavesARunningPilotAndTheRestartedDaemonAdoptsIt() {
    Assignment a = exec.work(pilot, envToken).orElseThrow();
    SiteDaemon.start(exec, Duration.ofHours(1), Duration.ofHours(1)).close();
    assertEquals(List.of(), execBatch.cancelled, "the running pilot is not cancelled");
    restartExec(Duration.ofSeconds(5));
    assertTrue(exec.heartbeat(pilot, a.token()), "its run goes on under the restarted daemon");
  }

  @Test
  void aDaemonWithoutAJournalCancelsItsPendingPilotsOnACleanStopToo() {
    FakeBatch plainBatch = new FakeBatch(8);
    Broker plain = new Broker(BrokerTest.settings("plain", "local:plain"), fed.connect("plain"), plainBatch, Optional.empty(),
        new RunOutputs(tmp.resolve("plain")), clock);
    plain.start();
    new BalancingPeriod(home.coordination()).run();
    plain.tick();
    assertEquals(1, plainBatch.submitted.size(), "plain queued a pilot for home's job too");
    SiteDaemon.start(plain, Duration.ofHours(1), Duration.ofHours(1)).close();
    assertEquals(List.copyOf(plainBatch.pilots.keySet()), plainBatch.cancelled, "the pending pilot is cancelled");
  }
}
