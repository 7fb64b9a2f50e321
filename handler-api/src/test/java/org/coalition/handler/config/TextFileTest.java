package org.coalition.handler.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TextFileTest {
  @TempDir Path tmp;

  private String refused(Path file) {
    return assertThrows(TextFile.Unreadable.class, () -> TextFile.read(file, "a site file", 100)).getMessage();
  }

  @Test
  void whatIsWrongWithAFileIsSaidWithItsNameAndNeverItsContent() throws Exception {
    assertEquals(tmp + ": is a directory, not a site file; name the file itself", refused(tmp));
    assertEquals(tmp.resolve("x") + ": no such file (a site file)", refused(tmp.resolve("x")));
    Path big = Files.writeString(tmp.resolve("big"), "x".repeat(101));
    assertEquals(big + ": 101 bytes, more than a site file should be (at most 100); is it the right file?", refused(big));
    Path latin1 = Files.write(tmp.resolve("latin1"), new byte[] {'a', '\n', 'b', '\n', 'c', (byte) 0xe9, '\n'});
    assertEquals(latin1 + ":3: not text (byte 6 is not UTF-8); is it a site file?", refused(latin1));
    Path nul = Files.write(tmp.resolve("nul"), new byte[] {'a', '\n', 0});
    assertEquals(nul + ":2: not text (byte 3 is NUL); is it a site file?", refused(nul));
    assertEquals("site: é\n", TextFile.read(Files.writeString(tmp.resolve("ok"), "site: é\n"), "a site file", 100));
  }

  @Test
  void aSecretMustBeTheOwnersAloneAndOneWordLongEnough() throws Exception {
    Path token = Files.writeString(tmp.resolve("token"), "0123456789abcdef\nignored\n");
    Files.setPosixFilePermissions(token, PosixFilePermissions.fromString("rw-r-----"));
    assertEquals(token + ": the operator token is readable by others; chmod 600 " + token,
        assertThrows(TextFile.Unreadable.class, () -> TextFile.secret(token, "the operator token", 16)).getMessage());
    Files.setPosixFilePermissions(token, PosixFilePermissions.fromString("rw-------"));
    assertEquals("0123456789abcdef", TextFile.secret(token, "the operator token", 16));
    assertEquals(token + ": the operator token must be at least 20 characters on its first line",
        assertThrows(TextFile.Unreadable.class, () -> TextFile.secret(token, "the operator token", 20)).getMessage());
    assertEquals(tmp.resolve("none") + ": the operator token is missing; create it (one line, mode 0600)",
        assertThrows(TextFile.Unreadable.class, () -> TextFile.secret(tmp.resolve("none"), "the operator token", 16)).getMessage());
    Path spaced = Files.writeString(tmp.resolve("spaced"), "my secret words\n");
    assertEquals(spaced + ": a token must be printable ASCII without spaces on its first line (character 3 is not)",
        assertThrows(TextFile.Unreadable.class, () -> TextFile.firstLine(spaced, "a token")).getMessage());
  }
}
