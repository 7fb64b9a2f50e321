package org.coalition.daemon.base;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What an operator sets at runtime outlives the daemon, privately, until the site file's own value is edited. */
class OperatorSettingsTest {
  @TempDir Path tmp;

  private static final Instant AT = Instant.parse("2026-12-01T21:00:00Z");

  @Test
  void aLevelSetIsThereForTheNextDaemonOwnerOnly() throws Exception {
    Path dir = tmp.resolve("operator");
    OperatorSettings.in(dir, 7200).participation(Optional.of(new OperatorSettings.Participation(3600, AT, 7200)));
    assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve(OperatorSettings.FILE))));
    assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir)));
    assertEquals(Optional.of(new OperatorSettings.Participation(3600, AT, 7200)), OperatorSettings.in(dir, 7200).participation());
    assertFalse(Files.list(dir).anyMatch(f -> f.getFileName().toString().startsWith(".")), "no temporary file left behind");
  }

  @Test
  void anEditOfTheSiteFilesLevelWinsAndDropsTheKeptOne() {
    Path dir = tmp.resolve("operator");
    OperatorSettings.in(dir, 7200).participation(Optional.of(new OperatorSettings.Participation(3600, AT, 7200)));
    assertEquals(Optional.empty(), OperatorSettings.in(dir, 5000).participation());
    assertEquals(Optional.empty(), OperatorSettings.in(dir, 7200).participation(), "dropped for good, not only for that start");
  }

  @Test
  void aFileTheDaemonDidNotWriteIsRefusedWithItsNameAndTheWayOut() throws Exception {
    Path dir = tmp.resolve("operator");
    OwnerOnlyFolder.prepare(dir, "operator settings folder");
    Files.writeString(dir.resolve(OperatorSettings.FILE), "{\"participation\": {\"level\": -1, \"setAt\": \"2026-12-01T21:00:00Z\", \"over\": 1}}");
    UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> OperatorSettings.in(dir, 7200));
    assertTrue(e.getMessage().startsWith(dir.resolve(OperatorSettings.FILE) + ": not the operator's settings as the daemon writes them"),
        e.getMessage());
    assertTrue(e.getMessage().endsWith("remove it to start with the site file's settings"), e.getMessage());
    Files.writeString(dir.resolve(OperatorSettings.FILE), "\u0000\u0001 not json");
    assertThrows(UncheckedIOException.class, () -> OperatorSettings.read(dir));
  }
}
