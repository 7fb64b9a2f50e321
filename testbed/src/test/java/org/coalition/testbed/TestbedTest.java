package org.coalition.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestbedTest {
  @TempDir Path home;

  @Test
  void defaultsToTheScriptsFolder() {
    assertEquals(Testbed.DEFAULT_DIR, Testbed.fromEnvironment(Map.of()).home());
    assertEquals(Path.of("/x"), Testbed.fromEnvironment(Map.of(Testbed.DIR_VARIABLE, "/x")).home());
  }

  @Test
  void missingInstanceFailsWithTheCommandThatStartsIt() {
    TestbedNotUpException e =
        assertThrows(TestbedNotUpException.class, () -> new Testbed(home).instance("slurm22-east"));
    assertTrue(e.getMessage().contains("testbed/up slurm22:east"), e.getMessage());
  }

  @Test
  void readsWhatTheScriptsWrote() throws IOException {
    Path dir = Files.createDirectories(home.resolve("run/sge"));
    Files.writeString(dir.resolve("testbed.properties"), "# comment\nkind=sge\nbin=" + dir + "\n");
    Files.writeString(dir.resolve("token"), "abc\n");
    Files.writeString(dir.resolve("testbed.properties"), "token=" + dir.resolve("token") + "\n",
        StandardOpenOption.APPEND);
    Instance sge = new Testbed(home).instance("sge");
    assertEquals("sge", sge.get("kind"));
    assertEquals("abc", sge.readFirstLine("token"));
    TestbedNotUpException missing = assertThrows(TestbedNotUpException.class, () -> sge.get("nope"));
    assertTrue(missing.getMessage().contains("'nope'"), missing.getMessage());
  }
}
