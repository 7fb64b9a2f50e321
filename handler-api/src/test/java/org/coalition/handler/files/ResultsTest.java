package org.coalition.handler.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.Set;
import org.coalition.handler.HandlerException;
import org.coalition.handler.HandlerException.Category;
import org.coalition.handler.RemoteRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The results folder coalition-replay reads: what is written, for whom, and when it goes. */
class ResultsTest {
  private static final String ME = System.getProperty("user.name");

  @TempDir
  Path root;

  @Test
  void writesAPrivateFolderWithOutputErrorsAndStatus() throws IOException {
    Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwx--x--x"));
    Results results = new Results(root);
    results.write("42", ME, RemoteRun.exited("out\n", "err\n", 3));
    Path job = root.resolve("42");
    assertEquals("out\n", Files.readString(job.resolve("stdout")));
    assertEquals("err\n", Files.readString(job.resolve("stderr")));
    assertEquals("exit 3\n", Files.readString(job.resolve("status")));
    assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(job)));
    assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(job.resolve("stdout"))));
    assertEquals(ME, Files.getOwner(job).getName());

    results.write("42", ME, RemoteRun.killed("", "", 9));
    assertEquals("signal 9\n", Files.readString(job.resolve("status")), "a second replay replaces the first");
    try (var entries = Files.list(root)) {
      assertEquals(Set.of(job), Set.copyOf(entries.toList()), "no hidden half-written folder is left");
    }
  }

  @Test
  void refusesARootOthersCanWriteAndAnUnknownUser() throws IOException {
    Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwxrwxrwx"));
    HandlerException open = assertThrows(HandlerException.class, () -> new Results(root).write("1", ME, RemoteRun.exited("", "", 0)));
    assertEquals(Category.REJECTED, open.category());
    assertTrue(open.getMessage().contains("writable by others"), open.getMessage());
    assertFalse(Files.exists(root.resolve("1")));

    Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwx--x--x"));
    HandlerException nobody = assertThrows(HandlerException.class,
        () -> new Results(root).write("2", "no-such-user-here", RemoteRun.exited("", "", 0)));
    assertEquals(Category.REJECTED, nobody.category(), "an unknown user is for good: the result is not tried again");
    // an I/O failure (here the file system refuses the name, as a full disk refuses the bytes) is for now: tried again
    HandlerException io = assertThrows(HandlerException.class, () -> new Results(root).write("9".repeat(300), ME, RemoteRun.exited("", "", 0)));
    assertEquals(Category.UNAVAILABLE, io.category(), io.getMessage());
    try (var entries = Files.list(root)) {
      assertEquals(0, entries.count(), "nothing is left behind by a failed write");
    }
  }

  @Test
  void sweepsEndedJobsAndAbandonedHalfWrittenFolders() throws IOException {
    Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwx--x--x"));
    Results results = new Results(root);
    results.write("7", ME, RemoteRun.exited("", "", 0));
    results.write("8", ME, RemoteRun.exited("", "", 0));
    results.write("12.3", ME, RemoteRun.exited("", "", 0)); // HTCondor's CLUSTER.PROC
    Path notAJob = Files.createDirectory(root.resolve("lost+found"));
    Path fresh = Files.createDirectory(root.resolve(".9.fresh"));
    Path old = Files.createDirectory(root.resolve(".10.old"));
    Files.setLastModifiedTime(old, FileTime.from(Instant.now().minusSeconds(7200)));
    results.sweep(id -> id.equals("7") || id.equals("12.3") || id.equals("lost+found"));
    assertFalse(Files.exists(root.resolve("7")));
    assertFalse(Files.exists(root.resolve("12.3")), "an HTCondor job's result goes once the job ended");
    assertTrue(Files.exists(notAJob), "what is named as no job is never swept");
    assertTrue(Files.exists(root.resolve("8")));
    assertTrue(Files.exists(fresh), "a folder being written now is left alone");
    assertFalse(Files.exists(old));
  }

  @Test
  void remoteRunsAreBounded() {
    assertThrows(IllegalArgumentException.class, () -> RemoteRun.exited("", "", 256));
    assertThrows(IllegalArgumentException.class, () -> RemoteRun.killed("", "", 0));
    assertThrows(IllegalArgumentException.class, () -> RemoteRun.killed("", "", 65));
  }
}
