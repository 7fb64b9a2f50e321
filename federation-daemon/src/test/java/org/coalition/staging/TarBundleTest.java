package org.coalition.staging;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Date;
import java.util.List;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.archivers.tar.TarConstants;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Tars as a hostile peer could write them: only files and folders inside the target pass. */
class TarBundleTest {
  @TempDir
  Path tmp;
  /** Where tars are unpacked: a folder of its own inside the test's, so that a name leaving it would land where only this test looks. */
  Path dir;

  @BeforeEach
  void folder() throws IOException {
    dir = Files.createDirectory(tmp.resolve("sandbox"));
  }

  /** A tar of entries: name, type flag, content. */
  private static byte[] tar(Object... entries) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (TarArchiveOutputStream out = new TarArchiveOutputStream(bytes)) {
      out.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
      for (int i = 0; i < entries.length; i += 3) {
        byte type = (byte) entries[i + 1];
        TarArchiveEntry e = new TarArchiveEntry((String) entries[i], type);
        byte[] content = ((String) entries[i + 2]).getBytes(StandardCharsets.UTF_8);
        if (type == TarConstants.LF_SYMLINK || type == TarConstants.LF_LINK) {
          e.setLinkName((String) entries[i + 2]);
          content = new byte[0];
        }
        e.setModTime(new Date(1_600_000_000_000L));
        e.setSize(type == TarConstants.LF_NORMAL ? content.length : 0);
        out.putArchiveEntry(e);
        out.write(content);
        out.closeArchiveEntry();
      }
    }
    return bytes.toByteArray();
  }

  @Test
  void filesAndFoldersPassWithTheirTimesAndLinksAreLeftOutByName() throws IOException {
    byte[] in = tar("./", TarConstants.LF_DIR, "", "./out/", TarConstants.LF_DIR, "", "./out/a/b.txt", TarConstants.LF_NORMAL, "bee\n",
        "./latest", TarConstants.LF_SYMLINK, "/etc/shadow", "./hard", TarConstants.LF_LINK, "out/a/b.txt", "fifo", TarConstants.LF_FIFO, "");
    ByteArrayOutputStream copy = new ByteArrayOutputStream();
    TarBundle.Checked checked = TarBundle.copy(new ByteArrayInputStream(in), copy, 100);
    assertEquals(1, checked.files());
    assertEquals(4, checked.bytes());
    assertEquals(List.of("latest (a symbolic link, not brought)", "hard (a hard link, not brought)",
        "fifo (neither a file nor a folder, not brought)"), checked.leftOut());
    TarBundle.unpack(new ByteArrayInputStream(copy.toByteArray()), dir, 100);
    assertArrayEquals("bee\n".getBytes(StandardCharsets.UTF_8), Files.readAllBytes(dir.resolve("out/a/b.txt")));
    assertEquals(1_600_000_000_000L, Files.getLastModifiedTime(dir.resolve("out/a/b.txt")).toMillis());
    assertFalse(Files.exists(dir.resolve("latest"), LinkOption.NOFOLLOW_LINKS));
    assertFalse(Files.exists(dir.resolve("hard"), LinkOption.NOFOLLOW_LINKS));
  }

  @Test
  void namesLeavingTheFolderAreRefused() throws IOException {
    for (String bad : List.of("../x", "a/../../x", "a\nb")) {
      byte[] in = tar(bad, TarConstants.LF_NORMAL, "x");
      StagingRefused e = assertThrows(StagingRefused.class, () -> TarBundle.copy(new ByteArrayInputStream(in), new ByteArrayOutputStream(),
          100), bad);
      assertTrue(e.getMessage().startsWith("the tar holds '"), e.getMessage());
      assertThrows(StagingRefused.class, () -> TarBundle.unpack(new ByteArrayInputStream(in), dir, 100), bad);
    }
    assertFalse(Files.exists(dir.getParent().resolve("x")));
  }

  @Test
  void anAbsoluteNameLandsInsideAsGnuTarPutsIt() throws IOException {
    ByteArrayOutputStream copy = new ByteArrayOutputStream();
    TarBundle.copy(new ByteArrayInputStream(tar("/etc/cron.d/x", TarConstants.LF_NORMAL, "x")), copy, 100);
    TarBundle.unpack(new ByteArrayInputStream(copy.toByteArray()), dir, 100);
    assertTrue(Files.isRegularFile(dir.resolve("etc/cron.d/x")));
  }

  @Test
  void filesOverTheLimitAreRefused() throws IOException {
    byte[] in = tar("a", TarConstants.LF_NORMAL, "12345", "b", TarConstants.LF_NORMAL, "67890");
    StagingRefused e = assertThrows(StagingRefused.class, () -> TarBundle.copy(new ByteArrayInputStream(in), new ByteArrayOutputStream(), 9));
    assertTrue(e.getMessage().contains("limit of 9 bytes per job"), e.getMessage());
    assertThrows(StagingRefused.class, () -> TarBundle.unpack(new ByteArrayInputStream(in), dir, 9));
  }

  @Test
  void garbageIsRefusedOrEmpty() throws IOException {
    byte[] garbage = "this is not a tar at all, but it is long enough to fill a header block? no.".repeat(10).getBytes(StandardCharsets.UTF_8);
    try {
      TarBundle.Checked c = TarBundle.copy(new ByteArrayInputStream(garbage), new ByteArrayOutputStream(), 100);
      assertEquals(0, c.files());
    } catch (StagingRefused | IOException e) {
      // refused: as good as nothing
    }
  }
}
