package org.coalition.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarFile;
import org.coalition.testbed.Command;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The jar {@code bin/coalition} runs ships no test harness: no JUnit, no curator-test's in-process
 * servers, no testbed. Runs after {@code package} (failsafe), on the file that is shipped.
 */
class ShippedJarIT {
  @Test
  void coalitionJarHoldsNoJUnitNoCuratorTestNoTestbed() throws Exception {
    Path jar = Path.of("target", "coalition.jar");
    assertTrue(Files.isRegularFile(jar), jar.toAbsolutePath() + " is missing: this test runs after 'mvn package'");
    try (JarFile file = new JarFile(jar.toFile())) {
      List<String> entries = file.stream().map(e -> e.getName()).toList();
      assertTrue(entries.contains("org/coalition/cli/Main.class"), "the jar is the command line");
      assertTrue(entries.stream().anyMatch(n -> n.startsWith("org/apache/curator/framework/")), "Curator itself ships");
      for (String banned : List.of("org/junit/", "junit/", "org/apache/curator/test/", "org/coalition/testbed/", "org/coalition/bench/")) {
        List<String> found = entries.stream().filter(n -> n.startsWith(banned)).limit(3).toList();
        assertFalse(!found.isEmpty(), () -> "the shipped jar holds " + banned + ": " + found);
      }
    }
  }

  /**
   * Coalition's licence and notice ship in the jar, first, and every bundled library's are kept
   * beside them: merged, not the last jar's over the others' (docs/decisions/0014-licence.md).
   */
  @Test
  void theJarKeepsCoalitionsLicenceAndEveryDependencysNotices() throws Exception {
    try (JarFile file = new JarFile(Path.of("target", "coalition.jar").toFile())) {
      String license = new String(file.getInputStream(file.getEntry("META-INF/LICENSE")).readAllBytes(), StandardCharsets.UTF_8);
      assertEquals(Files.readString(Path.of("..", "LICENSE")), license.substring(0, Files.readString(Path.of("..", "LICENSE")).length()),
          "Coalition's licence first");
      String notice = new String(file.getInputStream(file.getEntry("META-INF/NOTICE")).readAllBytes(), StandardCharsets.UTF_8);
      for (String kept : List.of("Coalition", "Curator Framework", "The Netty Project", "Jersey")) {
        assertTrue(notice.contains(kept), "NOTICE keeps " + kept);
      }
      String eclipse = new String(file.getInputStream(file.getEntry("META-INF/LICENSE.md")).readAllBytes(), StandardCharsets.UTF_8);
      assertTrue(eclipse.contains("Eclipse Public License"), "the Eclipse projects' licence (Jersey, Jakarta) ships");
    }
  }

  /** Jersey's Jetty container has its working classes for Java 17 only under META-INF/versions/17; without the flag the daemon's API cannot start. */
  @Test
  void theJarIsMultiReleaseSoTheApisServerLoadsItsJava17Classes() throws Exception {
    try (JarFile file = new JarFile(Path.of("target", "coalition.jar").toFile())) {
      assertEquals("true", file.getManifest().getMainAttributes().getValue("Multi-Release"), "the manifest's Multi-Release");
      assertTrue(file.getEntry("META-INF/versions/17/org/glassfish/jersey/jetty/JettyHttpContainer.class") != null,
          "the Jetty container's Java 17 class ships");
    }
  }

  /**
   * docs/site-file.md's faster pilot start: an archive recorded with {@code pilot --warm-up} is
   * mapped by a pilot's JVM ({@code -Xshare:on} refuses to start otherwise) and serves the
   * pilot's own classes, not only the JDK's.
   */
  @Test
  void aClassDataArchiveRecordedByAWarmUpServesAPilotsClasses(@TempDir Path dir) throws Exception {
    Path archive = dir.resolve("pilot.jsa");
    warmUp(dir, "-XX:ArchiveClassesAtExit=" + archive).requireSuccess();
    assertTrue(Files.size(archive) > 0, "the archive is written at exit");
    Command.Result used = warmUp(dir, "-Xshare:on", "-XX:SharedArchiveFile=" + archive, "-Xlog:class+load=info").requireSuccess();
    assertTrue(used.stdout().lines().anyMatch(l -> l.contains("org.coalition.daemon.pilot.PilotAgent source: shared objects file")),
        "the pilot's agent comes from the archive:\n" + used.stdout().lines().filter(l -> l.contains("PilotAgent")).toList());
  }

  /**
   * #51, problem 3: a command that reaches ZooKeeper printed ZooKeeper's and Netty's stack traces
   * for every connection tried (994 lines for 9 commands); the jar as shipped prints its one line.
   */
  @Test
  void aCommandThatAnswersAPersonPrintsItsOneLineNotTheLibrariesLogs(@TempDir Path dir) throws Exception {
    Path ca = dir.resolve("ca");
    assertEquals(ExitCodes.OK, CliRun.of("federation", "ca", "--dir", ca.toString(), "--name", "fed").exit());
    Path operator = dir.resolve("operator.p12");
    assertEquals(ExitCodes.OK, CliRun.of("federation", "issue", "--ca", ca.toString(), "--federation", "fed", "--out", operator.toString(),
        "operator").exit());
    Command.Result r = Command.of(Path.of(System.getProperty("java.home"), "bin", "java"), "-jar", Path.of("target", "coalition.jar").toString(),
        "federation", "list", "--zookeeper", "127.0.0.1:1", "--identity", operator.toString(), "--trust", ca.resolve("trust.p12").toString())
        .run();
    assertEquals(ExitCodes.UNAVAILABLE, r.exitCode(), r.describe());
    assertEquals(List.of("coalition federation list: no ZooKeeper server took a connection at 127.0.0.1:1: 127.0.0.1:1: nothing answers"
        + " there (Connection refused)"), r.stderr().lines().toList());
    assertEquals("", r.stdout());
  }

  /** {@code pilot --warm-up} of the shipped jar, with a pilot's JVM options and {@code options}. */
  private static Command.Result warmUp(Path dir, String... options) {
    List<String> args = new ArrayList<>(List.of("-Xmx96m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"));
    args.addAll(List.of(options));
    args.addAll(List.of("-jar", Path.of("target", "coalition.jar").toString(), "pilot", "--warm-up", "--scratch", dir.toString()));
    return Command.of(Path.of(System.getProperty("java.home"), "bin", "java"), args.toArray(String[]::new)).run();
  }
}
