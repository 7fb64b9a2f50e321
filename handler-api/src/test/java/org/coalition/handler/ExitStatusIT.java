package org.coalition.handler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How a job ended, as {@link ScriptRunner} tells it (issue #24, exit status as it was): a signal
 * is told from the exit code 128 + N a shell would give, for real processes run as {@code nobody}
 * under root, as a pilot runs them. Needs root (CI runs as root).
 */
class ExitStatusIT {
  private static final String ACCOUNT = "nobody";

  @TempDir Path tmp;

  @BeforeAll
  static void root() {
    assertEquals("root", System.getProperty("user.name"), "the pilot runs jobs as another account from root: run this as root (CI does)");
  }

  private ScriptRunner.Run run(String name, String script) throws Exception {
    Path scratch = Files.createDirectories(tmp.resolve("scratch"));
    Files.setPosixFilePermissions(scratch, PosixFilePermissions.fromString("rwx--x--x"));
    Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwx--x--x"));
    return new ScriptRunner(scratch).start(name, ACCOUNT, script);
  }

  private static ExitStatus ended(ScriptRunner.Run run) throws Exception {
    assertTrue(run.process().waitFor(30, TimeUnit.SECONDS), "the job ended");
    try {
      return run.exit();
    } finally {
      run.clean();
    }
  }

  @Test
  void aJobThatExitsWith143ExitedWith143() throws Exception {
    assertEquals(ExitStatus.exited(143), ended(run("exit", "#!/bin/sh\nexit 143\n")));
  }

  @Test
  void aJobThatASignalEndedWasEndedByThatSignal() throws Exception {
    assertEquals(ExitStatus.killed(15), ended(run("term", "#!/bin/sh\necho going\nkill -TERM $$\nsleep 5\n")));
    assertEquals(ExitStatus.killed(9), ended(run("kill", "#!/bin/bash\nkill -KILL $$\n")));
  }

  @Test
  void aJobStoppedAtItsTimeLimitEndsBySigtermWithTheProcessesItStarted() throws Exception {
    // The pid is written beside, then renamed: the file is never seen before the shell wrote it.
    ScriptRunner.Run run = run("stop", "#!/bin/bash\nsleep 300 &\necho $! > child.part\nmv child.part child\nwait\n");
    Path child = run.sandbox().resolve("child");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!Files.exists(child) && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertTrue(Files.exists(child), "the job wrote its child's pid within 30 s");
    long pid = Long.parseLong(Files.readString(child, StandardCharsets.US_ASCII).trim());
    assertTrue(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "the job's own child runs");
    run.stop(5);
    Optional<ProcessHandle> left = ProcessHandle.of(pid);
    for (int i = 0; i < 500 && left.map(ProcessHandle::isAlive).orElse(false); i++) {
      Thread.sleep(10);
    }
    assertFalse(left.map(ProcessHandle::isAlive).orElse(false), "the job's child was stopped with it");
    assertEquals(ExitStatus.killed(15), ended(run));
  }

  @Test
  void theStatusLineIsReadBackAndAnythingElseRefused() {
    assertEquals(Optional.of(ExitStatus.killed(15)), ExitStatus.parse("signal 15\n"));
    assertEquals(Optional.of(ExitStatus.exited(0)), ExitStatus.parse("exit 0"));
    assertEquals(Optional.empty(), ExitStatus.parse("signal 0"));
    assertEquals(Optional.empty(), ExitStatus.parse("exit 256"));
    assertEquals(Optional.empty(), ExitStatus.parse("exit 3; rm -rf /"));
    assertEquals(143, ExitStatus.killed(15).shellCode());
  }
}
