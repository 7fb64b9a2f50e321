package org.coalition.daemon.pilot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.util.Date;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.coalition.coordination.CoordinationException;
import org.coalition.coordination.Inputs;
import org.coalition.handler.LocalUsers;
import org.coalition.handler.ScriptRunner;
import org.coalition.staging.Checksums;
import org.coalition.staging.TarBundle;
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
    /** The inputs handed out, and the record's word on them. */
    volatile byte[] inputs;
    volatile Inputs declared = Inputs.NONE;
    volatile Map<String, String> environment = Map.of();
    /** The home's directory the run works in (an identity domain shares it), or "" for a sandbox. */
    volatile String place = "";
    /** The files handed in. */
    volatile byte[] files;
    /** How many jobs it hands out, one per call for work; then none. */
    volatile int jobs = 1;
    /** The tokens the pilot asked for work with, in order. */
    final List<String> askedWith = new CopyOnWriteArrayList<>();

    @Override
    public Optional<Assignment> work(String pilotId, String token) {
      if (workFailure != null) {
        throw workFailure;
      }
      askedWith.add(token);
      int n = askedWith.size();
      return n > jobs ? Optional.empty() : Optional.of(new Assignment("home/" + (6 + n), ScriptRunner.unprivilegedAccount(), 1, walltimeSeconds,
          script, "t" + (n + 1), declared, 1 << 20, environment, place));
    }

    @Override
    public void inputs(String pilotId, String token, Path target) {
      try {
        Files.write(target, inputs);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    @Override
    public void files(String pilotId, String token, Path tar, String sha256) {
      try {
        files = Files.readAllBytes(tar);
        assertEquals(Checksums.sha256(tar), sha256);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
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
  void aPilotRunsTheJobsItIsHandedOneAfterAnotherEachWithItsNewTokenAndExitsWithoutWork() throws Exception {
    Daemon daemon = new Daemon();
    daemon.jobs = 2;
    daemon.script = "echo run\n";
    assertEquals(0, run(daemon, 60_000));
    assertEquals(2, daemon.finishes.get(), "both jobs reported");
    assertEquals(List.of("t1", "t2", "t3"), daemon.askedWith, "each ask with the token handed over with the last job; the third got none");
  }

  @Test
  void aPilotWithAnIdleTimeAsksAgainUntilItIsOver() throws Exception {
    Daemon daemon = new Daemon();
    daemon.script = "echo run\n";
    long started = System.nanoTime();
    assertEquals(0, new PilotAgent(daemon, "p1", "t1", runner, HEARTBEAT_MILLIS, 60_000, 300, () -> System.currentTimeMillis() / 1000.0).run());
    assertTrue(daemon.askedWith.size() > 2, "asked again while its idle time lasted: " + daemon.askedWith.size() + " calls");
    assertTrue(System.nanoTime() - started >= 300_000_000L, "it exited once 300 ms had passed without work");
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

  /** A tar of {@code name} holding {@code content}, as a home packs inputs. */
  private static byte[] tarOf(String name, String content) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (TarArchiveOutputStream out = new TarArchiveOutputStream(bytes)) {
      TarArchiveEntry e = new TarArchiveEntry(name);
      byte[] data = content.getBytes(StandardCharsets.UTF_8);
      e.setSize(data.length);
      e.setModTime(new Date(1_600_000_000_000L));
      out.putArchiveEntry(e);
      out.write(data);
      out.closeArchiveEntry();
    }
    return bytes.toByteArray();
  }

  @Test
  void aRunFindsItsInputsAndSendsBackWhatItWroteButNotItsLinks() throws Exception {
    Daemon d = new Daemon();
    d.inputs = tarOf("data/in.txt", "hello\n");
    d.declared = new Inputs(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(d.inputs)), d.inputs.length);
    d.script = "mkdir -p out/deep && cat data/in.txt > out/deep/copy.txt && ln -s /etc/passwd link && echo done\n";
    assertEquals(0, run(d, 10_000));
    assertEquals(0, d.outcome.exitCode(), new String(d.outcome.stderr(), StandardCharsets.UTF_8));
    assertNotNull(d.files, "the run wrote files: they were handed in");
    Path back = Files.createDirectory(tmp.resolve("back"));
    TarBundle.unpack(new ByteArrayInputStream(d.files), back, 1 << 20);
    assertEquals("hello\n", Files.readString(back.resolve("out/deep/copy.txt")), "what the run wrote, from what it read");
    assertFalse(Files.exists(back.resolve("data/in.txt")), "an input the run left alone does not travel back");
    assertEquals("coalition: not brought back: link (a symbolic link, not brought)\n", new String(d.outcome.stderr(), StandardCharsets.UTF_8));
  }

  @Test
  void filesCopiedWithTheirOldTimesOrDatedInThePastComeBackAndInputsLeftAloneDoNot() throws Exception {
    Daemon d = new Daemon();
    d.inputs = tarOf("data/in.txt", "hello\n"); // dated 2020, before the run
    d.declared = new Inputs(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(d.inputs)), d.inputs.length);
    d.script = "cp -p data/in.txt copy.txt && echo old > old.txt && touch -d 2001-01-01 old.txt && cat data/in.txt > /dev/null && echo done\n";
    assertEquals(0, run(d, 10_000));
    assertEquals(0, d.outcome.exitCode(), new String(d.outcome.stderr(), StandardCharsets.UTF_8));
    Path back = Files.createDirectory(tmp.resolve("back"));
    TarBundle.unpack(new ByteArrayInputStream(d.files), back, 1 << 20);
    assertEquals("hello\n", Files.readString(back.resolve("copy.txt")), "cp -p kept the input's time of 2020: the copy is the run's all the same");
    assertEquals("old\n", Files.readString(back.resolve("old.txt")), "dated 2001 by touch -d, written by the run");
    assertFalse(Files.exists(back.resolve("data/in.txt")), "an input the run only read does not travel back");
  }

  @Test
  void aRunInPlaceWorksInItsHomesDirectoryAsItsUserAndSendsNoFiles() throws Exception {
    Path place = Files.createDirectory(tmp.resolve("home-dir"));
    Files.writeString(place.resolve("undeclared.txt"), "read where it lies\n");
    Files.setPosixFilePermissions(place, PosixFilePermissions.fromString("rwxrwxrwx"));
    Files.setPosixFilePermissions(place.resolve("undeclared.txt"), PosixFilePermissions.fromString("rw-r--r--"));
    Daemon d = new Daemon();
    d.place = place.toString();
    d.script = "pwd\ncat undeclared.txt\necho \"$HOME\"\nmkdir -p out && echo made > out/made.txt\n";
    assertEquals(0, run(d, 10_000));
    assertEquals(0, d.outcome.exitCode(), new String(d.outcome.stderr(), StandardCharsets.UTF_8));
    String home = LocalUsers.find(ScriptRunner.unprivilegedAccount()).orElseThrow().home();
    assertEquals(place + "\nread where it lies\n" + home + "\n", new String(d.outcome.stdout(), StandardCharsets.UTF_8),
        "it ran in its home's directory, read a file it never declared, with its account's own HOME");
    assertEquals("made\n", Files.readString(place.resolve("out/made.txt")), "what it wrote is where its home sees it");
    assertEquals(ScriptRunner.unprivilegedAccount(), Files.getOwner(place.resolve("out/made.txt")).getName(), "written as its account");
    assertEquals(null, d.files, "nothing is handed in: the files are home already");
    assertEquals("", new String(d.outcome.stderr(), StandardCharsets.UTF_8));
  }

  @Test
  void aRunInADirectoryThatIsNotThereSaysSo() throws Exception {
    Daemon d = new Daemon();
    d.place = tmp.resolve("gone").toString();
    assertEquals(0, run(d, 10_000));
    assertEquals(125, d.outcome.exitCode(), "env's own code for a directory it cannot enter");
    assertTrue(new String(d.outcome.stderr(), StandardCharsets.UTF_8).contains("cannot change directory to '" + d.place + "'"),
        new String(d.outcome.stderr(), StandardCharsets.UTF_8));
  }

  @Test
  void anArrayTaskRunsWithItsNumbersAsAtHome() throws Exception {
    Daemon d = new Daemon();
    d.environment = Map.of("SLURM_ARRAY_JOB_ID", "276", "SLURM_ARRAY_TASK_ID", "5", "SLURM_ARRAY_TASK_COUNT", "50");
    d.script = "echo \"$SLURM_ARRAY_JOB_ID $SLURM_ARRAY_TASK_ID of $SLURM_ARRAY_TASK_COUNT\"\n";
    assertEquals(0, run(d, 10_000));
    assertEquals("276 5 of 50\n", new String(d.outcome.stdout(), StandardCharsets.UTF_8));
  }

  @Test
  void inputsOtherThanTheRecordSaysCostTheClaimNotARun() throws Exception {
    Daemon d = new Daemon();
    d.inputs = tarOf("data/in.txt", "hello\n");
    d.declared = new Inputs("0".repeat(64), d.inputs.length);
    assertEquals(1, run(d, 10_000), "given up: the claim lapses and the job is queued again");
    assertEquals(null, d.outcome, "no run was reported");
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
  void aRunCutShortByThePilotsBatchSystemIsNotReportedAndDoesNotGoOn() throws Exception {
    Daemon d = new Daemon();
    d.script = "echo started\nsleep 60\necho ended\n";
    PilotAgent agent = new PilotAgent(d, "p1", "t1", runner, HEARTBEAT_MILLIS, 10_000, () -> System.currentTimeMillis() / 1000.0);
    // what the pilot's shutdown hook does on SIGTERM (a preemption, an eviction, a cancel), once the run is under way
    Thread batchSystem = new Thread(() -> {
      try {
        while (d.heartbeats.get() < 2) {
          Thread.sleep(20);
        }
      } catch (InterruptedException e) {
        return;
      }
      agent.stop();
    });
    batchSystem.start();
    long began = System.nanoTime();
    assertEquals(1, agent.run(), "the run is given up");
    batchSystem.join();
    assertTrue(System.nanoTime() - began < 20_000_000_000L, "killed at the stop, not after its 60 s sleep");
    assertNull(d.outcome, "a run cut short is not the job's result (killed by SIGTERM): its home queues the job again");
    try (Stream<Path> left = Files.list(tmp.resolve("scratch"))) {
      assertEquals(List.of(), left.toList(), "its folder deleted");
    }
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
