package org.coalition.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.coalition.coordination.CoordinationException;
import org.coalition.handler.ScriptRunner;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pilot against a hand-written daemon that fails on cue: a daemon that does not answer for a
 * while (restarting, its disk full) costs no run; a refusal, or no answer for the whole grace
 * time, kills it.
 */
class PilotAgentTest {
  private static final long HEARTBEAT_MILLIS = 100;

  @TempDir Path tmp;
  private ScriptRunner runner;

  @BeforeEach
  void scratch() throws Exception {
    Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwx--x--x"));
    Path scratch = Files.createDirectories(tmp.resolve("scratch"));
    Files.setPosixFilePermissions(scratch, PosixFilePermissions.fromString("rwx--x--x"));
    runner = new ScriptRunner(scratch);
  }

  /** A daemon whose heartbeat and finish fail in the ways given, then answer. */
  private static final class Daemon implements PilotService {
    final AtomicInteger heartbeats = new AtomicInteger();
    final AtomicInteger finishes = new AtomicInteger();
    volatile RuntimeException heartbeatFailure;
    volatile int heartbeatFailures;
    volatile RuntimeException finishFailure;
    volatile int finishFailures;
    volatile RunOutcome outcome;
    volatile RuntimeException workFailure;
    volatile long walltimeSeconds = 60;
    volatile String script = "sleep 1\necho done\n";

    @Override
    public Optional<Assignment> work(String pilotId, String token) {
      if (workFailure != null) {
        throw workFailure;
      }
      return Optional.of(new Assignment("home/7", ScriptRunner.unprivilegedAccount(), 1, walltimeSeconds, script, "t2"));
    }

    @Override
    public boolean heartbeat(String pilotId, String token) {
      if (heartbeats.incrementAndGet() <= heartbeatFailures) {
        throw heartbeatFailure;
      }
      return true;
    }

    @Override
    public void finish(String pilotId, String token, RunOutcome o) {
      if (finishes.incrementAndGet() <= finishFailures) {
        throw finishFailure;
      }
      outcome = o;
    }
  }

  private int run(Daemon daemon, long graceMillis) throws InterruptedException {
    return new PilotAgent(daemon, "p1", "t1", runner, HEARTBEAT_MILLIS, graceMillis, () -> System.currentTimeMillis() / 1000.0).run();
  }

  @Test
  void aDaemonThatDoesNotAnswerForAWhileCostsNoRun() throws Exception {
    Daemon d = new Daemon();
    d.heartbeatFailure = new PilotService.Unavailable("daemon at https://exec:8443/ unreachable: connection refused", null);
    d.heartbeatFailures = 4;
    d.finishFailure = new PilotService.Unavailable("daemon answered 503 to finish: the spool is full", null);
    d.finishFailures = 2;
    assertEquals(0, run(d, 10_000));
    assertNotNull(d.outcome, "the run's end was delivered once the daemon answered");
    assertEquals(0, d.outcome.exitCode());
    assertEquals("done\n", new String(d.outcome.stdout(), StandardCharsets.UTF_8));
    assertEquals(3, d.finishes.get(), "two refused reports, then the one that went in");
    assertFalse(d.outcome.timedOut(), "it ended by itself");
  }

  @Test
  void aRunPastItsTimeLimitIsStoppedAndReportedAsTimedOut() throws Exception {
    Daemon d = new Daemon();
    d.walltimeSeconds = 1;
    d.script = "echo started\nsleep 60\n";
    long began = System.nanoTime();
    assertEquals(0, run(d, 10_000), "a run stopped at its limit is reported, as any other end");
    assertTrue(System.nanoTime() - began < 20_000_000_000L, "stopped near its 1 s limit, not after its 60 s sleep");
    assertTrue(d.outcome.timedOut(), "its home replays it as TIMEOUT");
    assertEquals(15, d.outcome.signal(), "SIGTERM stopped it");
    assertEquals("started\n", new String(d.outcome.stdout(), StandardCharsets.UTF_8));
  }

  @Test
  void theStoreOfTheDaemonUnreachableForAMomentIsRiddenOutToo() throws Exception {
    Daemon d = new Daemon();
    d.heartbeatFailure = new CoordinationException(CoordinationException.Kind.UNAVAILABLE, "ZooKeeper connection lost");
    d.heartbeatFailures = 2;
    assertEquals(0, run(d, 10_000));
    assertNotNull(d.outcome);
  }

  @Test
  void noAnswerForTheWholeGraceKillsTheRun() throws Exception {
    Daemon d = new Daemon();
    d.heartbeatFailure = new PilotService.Unavailable("daemon at https://exec:8443/ unreachable: connection refused", null);
    d.heartbeatFailures = Integer.MAX_VALUE;
    assertEquals(1, run(d, 300)); // the run sleeps 1 s: had it lived on, it would have reported
    assertNull(d.outcome, "a killed run reports nothing: its home runs the job again");
    assertTrue(d.heartbeats.get() > 1, "asked again before giving up: " + d.heartbeats.get());
  }

  @Test
  void aPilotWhoseDaemonCannotHandOutWorkExitsAtOnceWithoutHoldingItsCores() throws Exception {
    Daemon d = new Daemon();
    d.workFailure = new PilotService.Unavailable("daemon answered 503 to work: this daemon is not connected to ZooKeeper", null);
    long began = System.nanoTime();
    assertEquals(0, run(d, 10_000), "no job held: a clean exit, not a failed pilot");
    assertTrue(System.nanoTime() - began < 5_000_000_000L, "it did not wait out its grace");
    assertEquals(0, d.heartbeats.get());
  }

  @Test
  void aRefusalKillsTheRunAtOnce() throws Exception {
    Daemon d = new Daemon();
    d.heartbeatFailure = new PilotService.PilotRefused("unknown pilot or wrong token");
    d.heartbeatFailures = Integer.MAX_VALUE;
    assertEquals(1, run(d, 10_000));
    assertEquals(1, d.heartbeats.get(), "a refusal is final: not asked again");
    assertNull(d.outcome);
  }

  @Test
  void onlyADaemonThatCouldNotAnswerIsAskedAgain() {
    assertTrue(PilotAgent.transientFailure(new PilotService.Unavailable("503", null)));
    assertTrue(PilotAgent.transientFailure(new CoordinationException(CoordinationException.Kind.UNAVAILABLE, "lost")));
    assertTrue(!PilotAgent.transientFailure(new PilotService.PilotRefused("wrong token")));
    assertTrue(!PilotAgent.transientFailure(new CoordinationException(CoordinationException.Kind.STALE, "claim lost")));
    assertTrue(!PilotAgent.transientFailure(new IllegalStateException("daemon answered 400")));
  }
}
