package org.coalition.gridengine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code coalition-gridengine-starter} without a cluster: given the environment and arguments Grid
 * Engine 8.1.9's shepherd gives a starter method (as recorded on the testbed), it runs a replay
 * for a job whose result is there and starts every other job as Grid Engine would without it.
 * {@code GridEngineHomeContractIT} and every Grid Engine suite run it under the real execd.
 */
class StarterScriptTest {
  @TempDir
  Path tmp;
  private Path starter;
  private Path results;
  private Path spool;

  @BeforeEach
  void install() throws IOException {
    Path lib = Files.createDirectories(tmp.resolve("lib"));
    results = Files.createDirectories(tmp.resolve("results"));
    spool = Files.createDirectories(tmp.resolve("active_jobs/7.1"));
    String script = Files.readString(Path.of("src/main/gridengine/coalition-gridengine-starter"))
        .replaceFirst("(?m)^RESULTS=.*$", "RESULTS=" + results);
    starter = executable(lib.resolve("coalition-gridengine-starter"), script);
    executable(lib.resolve("coalition-replay"), "#!/bin/sh\necho \"replay of $1\"\n");
  }

  private static Path executable(Path file, String text) throws IOException {
    Files.createDirectories(file.getParent());
    Files.writeString(file, text);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    return file;
  }

  /** What the starter prints, run as the shepherd runs it for job 7 (task {@code task}, "undefined" for none). */
  private String start(String mode, String task, String noShell, String... command) throws Exception {
    Files.writeString(spool.resolve("config"), "handle_as_binary=1\nno_shell=" + noShell + "\nshell_path=/bin/sh\n");
    List<String> argv = new ArrayList<>(List.of(starter.toString()));
    argv.addAll(List.of(command));
    ProcessBuilder pb = new ProcessBuilder(argv).redirectErrorStream(true);
    pb.environment().putAll(Map.of("JOB_ID", "7", "SGE_TASK_ID", task, "SGE_STARTER_SHELL_PATH", "/bin/sh",
        "SGE_STARTER_SHELL_START_MODE", mode, "SGE_STARTER_USE_LOGIN_SHELL", "false", "SGE_JOB_SPOOL_DIR", spool.toString()));
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    return out + "exit " + p.waitFor();
  }

  @Test
  void aJobWhoseResultIsThereReplaysItAndNoOtherDoes() throws Exception {
    Path script = executable(tmp.resolve("job_scripts/7"), "echo 'ran here'\nexit 3\n");
    assertEquals("ran here\nexit 3", start("posix_compliant", "undefined", "0", script.toString()));
    Files.createDirectory(results.resolve("7"));
    assertEquals("replay of " + results.resolve("7") + "\nexit 0", start("posix_compliant", "undefined", "0", script.toString()));
    assertEquals("ran here\nexit 3", start("posix_compliant", "2", "0", script.toString()), "task 2 of job 7 has no result of its own");
    Files.createDirectory(results.resolve("7.2"));
    assertEquals("replay of " + results.resolve("7.2") + "\nexit 0", start("posix_compliant", "2", "0", script.toString()));
  }

  @Test
  void aLinkInTheResultsFolderIsNoResult() throws Exception {
    Path elsewhere = Files.createDirectories(tmp.resolve("elsewhere"));
    Files.createSymbolicLink(results.resolve("7"), elsewhere);
    Path script = executable(tmp.resolve("job_scripts/7"), "echo 'ran here'\n");
    assertEquals("ran here\nexit 0", start("posix_compliant", "undefined", "0", script.toString()));
  }

  /** Grid Engine joins a binary job's words for its shell to read again; DRMAA's jobs (-shell n) and unix_behavior run as given. */
  @Test
  void everyOtherJobStartsAsGridEngineStartsIt() throws Exception {
    String quoted = "'echo quoted; exit 3'";
    assertEquals("quoted\nexit 3", start("posix_compliant", "undefined", "0", "/bin/sh", "-c", quoted), "qsub -b y: the shell reads it again");
    String asGiven = start("posix_compliant", "undefined", "1", "/bin/sh", "-c", quoted);
    assertTrue(asGiven.contains("not found") && asGiven.endsWith("exit 127"), "-shell n: as given, one word the shell cannot find: " + asGiven);
    assertEquals("two words\nexit 4", start("posix_compliant", "undefined", "1", "/bin/sh", "-c", "echo \"$0\"; exit 4", "two words"));
    assertEquals("two words\nexit 4", start("unix_behavior", "undefined", "0", "/bin/sh", "-c", "echo \"$0\"; exit 4", "two words"));
    Path noHashBang = executable(tmp.resolve("job_scripts/7"), "echo \"by $0\"\n");
    assertEquals("by " + noHashBang + "\nexit 0", start("posix_compliant", "undefined", "0", noHashBang.toString()),
        "a script by the job's shell, its path as $0");
  }
}
