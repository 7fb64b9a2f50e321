package org.coalition.drmaa.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.coalition.testbed.Command;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Runs each example program, unchanged, in a JVM of its own on one back end: the programs know
 * only {@code org.ggf.drmaa}; what differs between back ends is the system property naming the
 * implementation's factory and the batch system's environment. The JVM's class path is this
 * test's (the programs, the standard's API jar and both implementations), so nothing but the
 * property chooses.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class ExamplesOnABackEnd {
  private static final Duration PROGRAM_WAIT = Duration.ofMinutes(5);

  /**
   * The implementation's factory class, the value of {@code org.ggf.drmaa.SessionFactory}.
   *
   * @return its name
   */
  protected abstract String factory();

  /**
   * The batch system's environment for a program (its tools, its library).
   *
   * @return the variables
   */
  protected abstract Map<String, String> environment();

  /**
   * System properties besides the factory's.
   *
   * @return {@code -Dname=value} arguments
   */
  protected abstract List<String> properties();

  /**
   * A folder of the back end's shared file system.
   *
   * @return it
   */
  protected abstract Path jobsFolder();

  /**
   * The home directory of the user the back end runs the programs' jobs as.
   *
   * @return it
   */
  protected abstract String jobsHome();

  @Test
  void runAndWait() throws Exception {
    Path dir = folder();
    List<String> out = run(RunAndWait.class, dir);
    assertTrue(out.get(0).startsWith("implementation: "), out.toString());
    assertTrue(out.get(1).startsWith("submitted job "), out.toString());
    assertEquals("job " + out.get(1).substring("submitted job ".length()) + " exited with status 7", out.get(2));
    assertEquals("hello from a job\n", Files.readString(dir.resolve("run.out")));
  }

  @Test
  void bulkJobs() throws Exception {
    Path dir = folder();
    List<String> out = run(BulkJobs.class, dir);
    assertEquals(List.of("submitted 6 tasks", "all tasks ended"), out.subList(0, 2));
    assertEquals(8, out.size(), out.toString());
    for (String line : out.subList(2, 8)) {
      assertTrue(line.matches("task \\S+ exited with status 0"), line);
    }
    for (int i = 1; i <= 6; i++) {
      assertEquals("task done\n", Files.readString(dir.resolve("task." + i)), "task " + i);
    }
  }

  @Test
  void controlJobs() throws Exception {
    Path dir = folder();
    List<String> out = run(ControlJobs.class, dir);
    assertEquals(List.of("submitted on hold: USER_ON_HOLD", "released, then exited with status 0", "running: RUNNING",
        "suspended: USER_SUSPENDED", "resumed: RUNNING"), out.subList(0, 5));
    assertTrue(out.get(5).matches("terminated: exited false, signaled (true, aborted false|false, aborted true)"), out.get(5));
    assertEquals("released\n", Files.readString(dir.resolve("held.out")));
  }

  @Test
  void jobInfoAndUsage() throws Exception {
    List<String> out = run(JobInfoAndUsage.class, folder());
    assertEquals("worked: exited with status 3", out.get(0));
    assertTrue(out.get(1).startsWith("worked: resource usage {") && out.get(1).contains("ru_wallclock="), out.get(1));
    assertEquals("killed: killed by SIGKILL", out.get(2));
  }

  @Test
  void placeholders() throws Exception {
    Path dir = folder();
    List<String> out = run(Placeholders.class, dir);
    assertTrue(out.get(0).matches("tasks \\[\\S+, \\S+, \\S+] and job \\S+ ended"), out.toString());
    for (int i = 1; i <= 3; i++) {
      assertEquals("in " + dir + "\n", Files.readString(dir.resolve("out." + i)), "task " + i);
    }
    assertEquals(jobsHome() + "\n", Files.readString(dir.resolve("home.out")), "the home directory placeholder");
  }

  private Path folder() throws Exception {
    Path dir = Files.createTempDirectory(jobsFolder(), "examples");
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
    return dir;
  }

  /** Runs a program in a JVM of its own; its standard output's lines, when it exits 0. */
  private List<String> run(Class<?> program, Path dir) {
    List<String> args = new ArrayList<>(List.of("-cp", System.getProperty("java.class.path"), "-Dorg.ggf.drmaa.SessionFactory=" + factory()));
    args.addAll(properties());
    args.add(program.getName());
    args.add(dir.toString());
    Command command = Command.of(Path.of(System.getProperty("java.home"), "bin", "java"), args.toArray(String[]::new)).timeout(PROGRAM_WAIT);
    environment().forEach(command::env);
    Command.Result r = command.run().requireSuccess();
    System.out.println("[examples] " + getClass().getSimpleName() + " " + program.getSimpleName() + ":\n" + r.stdout().strip());
    return r.stdout().lines().toList();
  }
}
