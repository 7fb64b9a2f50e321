package org.coalition.staging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.util.HexFormat;
import org.coalition.coordination.Inputs;
import org.coalition.handler.ScriptRunner;
import org.coalition.handler.files.AsAccount;
import org.coalition.handler.files.NoFollow;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Inputs are read as the job's user: under root (as in CI) the user is {@code nobody}, and a file
 * only root can read, or a link to one, keeps the job home.
 */
class InputPackerTest {
  private static final String USER = ScriptRunner.unprivilegedAccount();
  @TempDir
  Path spool;
  private Path work;

  @BeforeEach
  void workDir() throws IOException {
    // outside JUnit's 0700 folder: the user must reach it
    work = Files.createTempDirectory(Path.of("/tmp"), "coalition-inputs-", PosixFilePermissions.asFileAttribute(
        PosixFilePermissions.fromString("rwxr-xr-x")));
    Files.createDirectories(work.resolve("data/sub"));
    Files.writeString(work.resolve("data/sub/in.csv"), "a,b\n1,2\n");
    Files.writeString(work.resolve("params.json"), "{}\n");
    Files.walk(work).forEach(p -> p.toFile().setReadable(true, false));
  }

  @AfterEach
  void clean() throws IOException {
    NoFollow.deleteTree(work.getParent(), work.getFileName().toString());
  }

  private InputPacker packer(long maxJob) {
    return new InputPacker(spool.resolve("inputs"), new StagingLimits(maxJob, 10 * maxJob));
  }

  @Test
  void declaredFilesAndFoldersArePackedWithTheirChecksum() throws Exception {
    Inputs inputs = packer(1 << 20).pack("17", USER, work.toString(), "#!/bin/sh\n#COALITION --stage-in=data\n#COALITION --stage-in=params.json\n");
    Path tar = packer(1 << 20).stored("17").orElseThrow();
    assertEquals(Files.size(tar), inputs.bytes());
    try (InputStream in = Files.newInputStream(tar)) {
      assertEquals(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(in.readAllBytes())), inputs.sha256());
    }
    Path out = Files.createDirectory(spool.resolve("unpacked"));
    try (InputStream in = Files.newInputStream(tar)) {
      TarBundle.unpack(in, out, 1 << 20);
    }
    assertEquals("a,b\n1,2\n", Files.readString(out.resolve("data/sub/in.csv")));
    assertEquals("{}\n", Files.readString(out.resolve("params.json")));
  }

  @Test
  void noDirectiveNoInputs() {
    assertEquals(Inputs.NONE, packer(1 << 20).pack("18", USER, work.toString(), "#!/bin/sh\necho hi\n"));
    assertFalse(packer(1 << 20).stored("18").isPresent());
  }

  @Test
  void aMissingInputKeepsTheJobHomeWithTarsReason() {
    StagingRefused e = assertThrows(StagingRefused.class, () -> packer(1 << 20).pack("19", USER, work.toString(),
        "#!/bin/sh\n#COALITION --stage-in=data\n#COALITION --stage-in=nope.txt\n"));
    assertEquals("inputs: nope.txt: Cannot stat: No such file or directory", e.getMessage());
    assertFalse(packer(1 << 20).stored("19").isPresent());
  }

  @Test
  void inputsOverTheJobLimitKeepItHome() {
    StagingRefused e = assertThrows(StagingRefused.class, () -> packer(5).pack("20", USER, work.toString(),
        "#COALITION --stage-in=data\n"));
    assertTrue(e.getMessage().contains("limit of 5 bytes per job (staging.max-job)"), e.getMessage());
  }

  @Test
  void whatTheUserCannotReadIsNotPackedEvenThroughALink() throws IOException {
    if (!AsAccount.root()) {
      return; // not root: this process reads as the user already, and has no other rights to lend
    }
    Path secret = Files.writeString(work.resolve("secret"), "root only\n");
    Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("rw-------"));
    Files.createSymbolicLink(work.resolve("shadow"), Path.of("/etc/shadow"));
    for (String name : new String[] {"secret", "shadow"}) {
      StagingRefused e = assertThrows(StagingRefused.class, () -> packer(1 << 20).pack("21", USER, work.toString(),
          "#COALITION --stage-in=" + name + "\n"));
      assertTrue(e.getMessage().contains("Permission denied"), e.getMessage());
    }
  }
}
