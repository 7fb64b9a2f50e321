package org.coalition.daemon.outputs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The executor's spool: outputs private to the daemon's account, and no more of them than the quota. */
class RunOutputsTest {
  @TempDir Path tmp;

  @Test
  void outputsAreReadableByTheDaemonAloneWhateverTheUmask() throws IOException {
    Path spool = tmp.resolve("outputs");
    RunOutputs outputs = new RunOutputs(spool, "https://exec.example:8443/");
    String ref = outputs.store("home", "7-1", new byte[100_000], new byte[0]);
    String name = ref.substring(ref.lastIndexOf('/') + 1);
    assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(spool)));
    assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(outputs.served(name).orElseThrow())));
  }

  @Test
  void anOutputsNameSaysItsHomeUnambiguously() {
    RunOutputs outputs = new RunOutputs(tmp.resolve("outputs"), "https://exec.example:8443/");
    String ref = outputs.store("a-b", "7-1", new byte[100_000], new byte[0]);
    String name = ref.substring(ref.lastIndexOf('/') + 1);
    assertTrue(name.startsWith("a-b~7-1-"), name);
    assertEquals(Optional.of("a-b"), RunOutputs.homeOf(name), "the home 'a-b', not 'a': site ids never hold '~'");
    assertEquals(Optional.empty(), RunOutputs.homeOf("a-b-7-1-0123456789abcdef0123456789abcdef"), "a name without a home is no output");
    assertThrows(IllegalArgumentException.class, () -> outputs.store("no~pe", "1", new byte[0], new byte[0]));
  }

  @Test
  void aFullSpoolRefusesTheNextOutputAndKeepsWhatItHas() throws IOException {
    RunOutputs outputs = new RunOutputs(tmp.resolve("outputs"), "https://exec.example:8443/", 250_000);
    outputs.store("home", "7-1", new byte[100_000], new byte[0]);
    outputs.store("home", "8-1", new byte[100_000], new byte[0]);
    RunOutputs.SpoolFull full = assertThrows(RunOutputs.SpoolFull.class, () -> outputs.store("home", "9-1", new byte[100_000], new byte[0]));
    assertTrue(full.getCause().getMessage().contains("quota of 250000"), full.getCause().getMessage());
    try (var files = Files.list(tmp.resolve("outputs"))) {
      assertEquals(2, files.count(), "the two stored before are kept, nothing half-written is left");
    }
  }

  @Test
  void aSpoolTheDiskRefusesAnswersForNowNotForGood() throws IOException {
    Files.writeString(tmp.resolve("outputs"), "not a folder"); // the write fails as on a full or read-only disk
    RunOutputs outputs = new RunOutputs(tmp.resolve("outputs"), "https://exec.example:8443/");
    RunOutputs.SpoolFull refused = assertThrows(RunOutputs.SpoolFull.class, () -> outputs.store("home", "7-1", new byte[100_000], new byte[0]));
    assertTrue(refused.getCause().getMessage().contains("now"), refused.getCause().getMessage());
  }
}
