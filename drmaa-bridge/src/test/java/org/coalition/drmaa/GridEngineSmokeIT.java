package org.coalition.drmaa;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import org.coalition.testbed.Command;
import org.coalition.testbed.Instance;
import org.coalition.testbed.Testbed;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Smoke test: the real Grid Engine runs a job submitted with {@code qsub} and reports its exit
 * status, and its DRMAA 1.0 library is where the testbed says. Needs {@code testbed/up sge}.
 */
@Tag("testbed") // needs testbed/up's systems: .ci/run runs it once they are up
class GridEngineSmokeIT {
  @Test
  void qsubRunsAJobAndReturnsItsExitStatus() throws Exception {
    Instance sge = Testbed.require("sge");
    Path dir = Files.createTempDirectory(sge.path("jobs.dir"), "smoke");
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
    Path out = dir.resolve("out");
    // -sync y waits for the job and exits with the job's exit status.
    Command.Result result = Command.of(sge.tool("qsub"), "-sync", "y", "-b", "y", "-j", "y",
            "-o", out.toString(), "-N", "coalition-smoke", "/bin/sh", "-c", "'echo ran-on-gridengine; exit 3'")
        .timeout(Duration.ofSeconds(120))
        .run();
    assertEquals(3, result.exitCode(), result::describe);
    // qsub -sync y reports the end of the job on stderr.
    assertTrue(result.stderr().contains("exited with exit code 3"), result::describe);
    assertEquals("ran-on-gridengine", Files.readString(out).trim());
    System.out.println("[smoke] sge: qsub job ran on Grid Engine and exited 3");
  }

  @Test
  void drmaaLibraryIsInstalled() {
    Path library = Testbed.require("sge").path("drmaa.library");
    assertTrue(Files.isReadable(library), library + " is missing");
    System.out.println("[smoke] sge: DRMAA 1.0 library at " + library);
  }
}
