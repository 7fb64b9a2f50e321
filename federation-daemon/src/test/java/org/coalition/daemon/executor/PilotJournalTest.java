package org.coalition.daemon.executor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HexFormat;
import java.util.List;
import org.coalition.coordination.Claim;
import org.coalition.coordination.JobSpec;
import org.coalition.handler.PilotHandle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PilotJournalTest {
  private static final JobSpec JOB = JobSpec.builder("7", "north").cores(4).memoryMb(2048).walltimeSeconds(3600).release(12.5)
      .payload("#!/bin/sh\necho hi\n").build();

  @TempDir Path tmp;

  private static PilotJournal.Entry entry(String id, String phase) {
    return new PilotJournal.Entry(id, HexFormat.of().formatHex(Pilots.hash("secret-" + id)), "fed-north", 4, 2048L, 3660, JOB.ref(), 1_000L,
        phase,
        new PilotHandle("slurm", "4127"), new Claim(JOB, "south", 0x1234L), 20.5, "", false, true, null, null);
  }

  @Test
  void whatIsSavedIsLoadedBackAndReplacedWhole() throws Exception {
    PilotJournal journal = new PilotJournal(tmp.resolve("pilots"));
    journal.save(entry("south-1-ab", "PENDING"));
    journal.save(entry("south-2-cd", "RUNNING"));
    journal.save(entry("south-1-ab", "RUNNING"));
    List<PilotJournal.Entry> loaded = journal.load();
    assertEquals(2, loaded.size());
    assertTrue(loaded.contains(entry("south-1-ab", "RUNNING")) && loaded.contains(entry("south-2-cd", "RUNNING")), loaded.toString());
    try (var files = Files.list(tmp.resolve("pilots"))) {
      assertEquals(2, files.count(), "no temporary file is left behind");
    }
    journal.remove("south-2-cd");
    assertEquals(List.of(entry("south-1-ab", "RUNNING")), new PilotJournal(tmp.resolve("pilots")).load(), "a new daemon reads what is left");
  }

  @Test
  void theJournalIsTheDaemonsAloneAndHoldsNoToken() throws Exception {
    Path dir = tmp.resolve("pilots");
    PilotJournal journal = new PilotJournal(dir);
    journal.save(entry("south-1-ab", "RUNNING"));
    assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir, LinkOption.NOFOLLOW_LINKS)));
    Path file = dir.resolve("south-1-ab.json");
    assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file, LinkOption.NOFOLLOW_LINKS)));
    assertFalse(Files.readString(file).contains("secret-south-1-ab"), "only the token's hash is kept");
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
    IllegalStateException open = assertThrows(IllegalStateException.class, () -> new PilotJournal(dir));
    assertTrue(open.getMessage().contains("chmod 700"), open.getMessage());
  }

  @Test
  void aBrokenRecordIsSetAsideNeverHalfBelieved() throws Exception {
    PilotJournal journal = new PilotJournal(tmp.resolve("pilots"));
    journal.save(entry("south-1-ab", "RUNNING"));
    Files.write(tmp.resolve("pilots").resolve("south-3-ef.json"), "{\"id\":\"south-3-ef\",".getBytes(StandardCharsets.UTF_8));
    Files.write(tmp.resolve("pilots").resolve("south-4-gh.json"), new String(Files.readAllBytes(tmp.resolve("pilots/south-1-ab.json")),
        StandardCharsets.UTF_8).getBytes(StandardCharsets.UTF_8));
    assertEquals(List.of(entry("south-1-ab", "RUNNING")), journal.load(), "a cut record and one filed under another name are not loaded");
    assertTrue(Files.exists(tmp.resolve("pilots/south-3-ef.json.broken")) && Files.exists(tmp.resolve("pilots/south-4-gh.json.broken")));
    assertThrows(IllegalArgumentException.class, () -> journal.remove("../../etc/passwd"));
  }
}
