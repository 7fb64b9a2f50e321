package org.coalition.slurm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.coalition.handler.RemoteRun;
import org.coalition.handler.files.Results;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * coalition-replay puts the files a run wrote into the job's working directory (the real script,
 * run by sh as this process's user, as Slurm runs it as the job's): new files and folders appear,
 * a file unchanged at home since the job left is replaced, one changed at home since is kept and
 * the run's version put beside it, and the replay still ends as the run did.
 */
class ReplayFilesTest {
  private static final String ME = System.getProperty("user.name");
  private static final Path SCRIPT = Path.of("src/main/slurm/coalition-replay").toAbsolutePath();

  @TempDir
  Path dir;

  @Test
  void filesComeBackAndAFileChangedAtHomeIsKept() throws Exception {
    Instant left = Instant.now().minus(Duration.ofMinutes(10));
    Path work = Files.createDirectory(dir.resolve("work"));
    Files.writeString(work.resolve("input.txt"), "home version\n");
    Files.setLastModifiedTime(work.resolve("input.txt"), FileTime.from(left.minus(Duration.ofMinutes(5))));
    Files.writeString(work.resolve("notes.txt"), "edited at home while the job was away\n");
    Files.writeString(work.resolve("same.txt"), "same\n");

    Path run = Files.createDirectory(dir.resolve("run"));
    Files.createDirectories(run.resolve("out/deep"));
    Files.createDirectories(run.resolve("empty"));
    Files.writeString(run.resolve("out/deep/result.txt"), "result\n");
    Files.writeString(run.resolve("input.txt"), "changed by the run\n");
    Files.writeString(run.resolve("notes.txt"), "the run's notes\n");
    Files.writeString(run.resolve("same.txt"), "same\n");
    Path tar = dir.resolve("files.tar");
    assertEquals(0, new ProcessBuilder("tar", "-c", "-f", tar.toString(), "-C", run.toString(), ".").inheritIO().start().waitFor());

    Path results = Files.createDirectory(dir.resolve("results"), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx--x--x")));
    new Results(results).write("5", ME, new RemoteRun("out\n".getBytes(StandardCharsets.UTF_8), new byte[0], 3, 0, false,
        Optional.of(new RemoteRun.Files(tar, left))));

    Process replay = new ProcessBuilder("sh", SCRIPT.toString(), results.resolve("5").toString()).directory(work.toFile()).start();
    String stdout = new String(replay.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    String stderr = new String(replay.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(3, replay.waitFor(), stderr);
    assertEquals("out\n", stdout);
    assertEquals("result\n", Files.readString(work.resolve("out/deep/result.txt")));
    assertTrue(Files.isDirectory(work.resolve("empty")), "an empty folder the run made comes back");
    assertEquals("changed by the run\n", Files.readString(work.resolve("input.txt")), "unchanged at home since the job left: replaced");
    assertEquals("edited at home while the job was away\n", Files.readString(work.resolve("notes.txt")), "changed at home: kept");
    assertEquals("the run's notes\n", Files.readString(work.resolve("notes.txt.coalition-conflict")));
    assertEquals("coalition-replay: notes.txt changed here after the job left; the run's version is notes.txt.coalition-conflict\n", stderr);
    assertFalse(Files.exists(work.resolve("same.txt.coalition-conflict")), "identical contents are no conflict");
    try (var left2 = Files.list(work)) {
      assertTrue(left2.noneMatch(p -> p.getFileName().toString().startsWith(".coalition-files")), "the unpacking folder is gone");
    }
  }

  @Test
  void aRunKilledForMemoryReplaysItsOutputAndEndsAsItEndedWhereNoMemoryIsEnforced() throws Exception {
    Path work = Files.createDirectory(dir.resolve("work"));
    Path results = Files.createDirectory(dir.resolve("results"), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx--x--x")));
    RemoteRun killed = new RemoteRun("start\n".getBytes(StandardCharsets.UTF_8), "Killed\n".getBytes(StandardCharsets.UTF_8), 0, 9, false,
        Optional.empty(), true);
    assertEquals("signal 9 oom\n", killed.statusLine());
    new Results(results).write("6", ME, killed);
    Process replay = new ProcessBuilder("sh", SCRIPT.toString(), results.resolve("6").toString()).directory(work.toFile()).start();
    String stdout = new String(replay.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    String stderr = new String(replay.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(128 + 9, replay.waitFor(), "the memory asked for here passed (no limit on this process), then the run's signal: " + stderr);
    assertEquals("start\n", stdout);
    assertEquals("Killed\n", stderr);

    Files.writeString(results.resolve("6/status"), "exit 0 later\n");
    Process refused = new ProcessBuilder("sh", SCRIPT.toString(), results.resolve("6").toString()).directory(work.toFile()).start();
    String why = new String(refused.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(1, refused.waitFor());
    assertTrue(why.contains("status says 'exit 0 later', not 'oom' after the status"), why);
  }
}
