package org.coalition.cli;

import static org.coalition.testbed.Eventually.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * #51, problems 4 and 6: Ctrl-C at any moment of {@code demo} and {@code trial} leaves no secret,
 * no folder (but the demo's decision log) and no process behind, and prints no error; and
 * {@code demo --serve} keeps its three sites running with their dashboards while work moves.
 * Each runs the shipped jar in a JVM of its own, its temporary folder this test's, and gets a
 * real SIGINT (through perl, which puts back SIGINT's default: a test runner started in the
 * background may have it ignored, and a JVM keeps an ignored SIGINT ignored).
 */
class StopAnyMomentIT {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path tmp;
  private final List<Process> started = new ArrayList<>();

  /** A run that failed before its Ctrl-C leaves no demo behind for the next test. */
  @AfterEach
  void stopWhatIsLeft() {
    started.forEach(p -> p.descendants().forEach(ProcessHandle::destroyForcibly));
    started.forEach(Process::destroyForcibly);
  }

  private Process start(Path log, String... args) throws IOException {
    List<String> argv = new ArrayList<>(List.of("perl", "-e", "$SIG{INT}='DEFAULT'; exec @ARGV",
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Djava.io.tmpdir=" + tmp.resolve("t"), "-jar",
        Path.of("target", "coalition.jar").toString()));
    argv.addAll(List.of(args));
    // the demo's jobs run as nobody when the test runs as root: they must be let through to the demo's folder
    Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwx--x--x"));
    Files.setPosixFilePermissions(Files.createDirectories(tmp.resolve("t")), PosixFilePermissions.fromString("rwx--x--x"));
    Process p = new ProcessBuilder(argv).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    started.add(p);
    return p;
  }

  /** Sends Ctrl-C's signal, waits for the exit, and checks what is left: nothing but {@code kept}, no error, no process. */
  private void interruptAndCheck(Process p, Path log, String kept) throws Exception {
    new ProcessBuilder("kill", "-INT", Long.toString(p.pid())).start().waitFor();
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "it stops within a minute");
    String output = Files.readString(log);
    assertEquals(130, p.exitValue(), output);
    assertTrue(!output.contains("internal error") && !output.contains("Exception") && !output.contains("\tat "), output);
    try (Stream<Path> left = Files.walk(tmp.resolve("t"))) {
      List<String> names = left.filter(f -> !f.equals(tmp.resolve("t"))).map(f -> tmp.resolve("t").relativize(f).toString())
          .filter(n -> kept.isEmpty() || !n.matches(kept)).toList();
      assertEquals(List.of(), names, "left behind; the output:\n" + output);
    }
    String folder = tmp.resolve("t").toString();
    List<String> running = ProcessHandle.allProcesses().filter(h -> h.info().commandLine().map(c -> c.contains(folder)).orElse(false))
        .map(h -> h.pid() + " " + h.info().commandLine().orElse("")).toList();
    assertEquals(List.of(), running, "no process of it is left (jobs, pilots)");
  }

  @ParameterizedTest(name = "Ctrl-C {0} ms after demo --serve starts")
  @ValueSource(ints = {700, 1500, 3000})
  void ctrlCAtAnyMomentOfTheDemoLeavesOnlyItsDecisionLog(int millis) throws Exception {
    Path log = tmp.resolve("demo.log");
    Process p = start(log, "demo", "--serve", "--port", Integer.toString(freePorts()), "--no-progress");
    Thread.sleep(millis);
    interruptAndCheck(p, log, "coalition-demo-[0-9]+(/decisions\\.log)?");
  }

  @ParameterizedTest(name = "Ctrl-C {0} ms after trial starts")
  @ValueSource(ints = {700, 1500, 3000})
  void ctrlCAtAnyMomentOfATrialLeavesNothing(int millis) throws Exception {
    Path log = tmp.resolve("trial.log");
    Process p = start(log, "trial", Path.of("..", "docs", "examples", "site-local.yaml").toString(), "--port", Integer.toString(freePorts()));
    Thread.sleep(millis);
    interruptAndCheck(p, log, "");
  }

  /** The demo's three dashboards serve while work moves between the sites, and Ctrl-C then leaves only the decision log. */
  @Test
  void theServedDemoShowsWorkMovingOnEachSitesDashboardUntilCtrlC() throws Exception {
    Path log = tmp.resolve("serve.log");
    int port = freePorts();
    Process p = start(log, "demo", "--serve", "--port", Integer.toString(port), "--jobs", "12", "--seconds", "1", "--no-progress");
    HttpClient http = HttpClient.newHttpClient();
    waitFor("north's dashboard shows jobs moving to the others (log: " + log + ")", Duration.ofSeconds(120), () -> {
      JsonNode flows = get(http, port, "v1/flows");
      return flows != null && flows.path("flows").size() > 0 && flows.path("flows").get(0).path("jobs").asInt() > 0;
    });
    String page = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + (port + 2) + "/")).build(),
        HttpResponse.BodyHandlers.ofString()).body();
    assertTrue(page.contains("<title>"), "west's dashboard page is served too");
    waitFor("the trickle goes on after the first jobs", Duration.ofSeconds(60),
        () -> read(log).contains("serving;") && sitesRan(http, port) > 12);
    interruptAndCheck(p, log, "coalition-demo-[0-9]+(/decisions\\.log)?");
  }

  private static String read(Path log) {
    try {
      return Files.readString(log);
    } catch (IOException e) {
      return "";
    }
  }

  /** Jobs north's ledger has seen run, at home or elsewhere, so far. */
  private static int sitesRan(HttpClient http, int port) {
    JsonNode ledger = get(http, port, "v1/ledger");
    int jobs = 0;
    for (JsonNode s : ledger == null ? JSON.createArrayNode() : ledger.path("sites")) {
      jobs += s.path("jobsSubmitted").asInt();
    }
    return jobs;
  }

  private static JsonNode get(HttpClient http, int port, String path) {
    try {
      HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/" + path)).build(),
          HttpResponse.BodyHandlers.ofString());
      return r.statusCode() == 200 ? JSON.readTree(r.body()) : null;
    } catch (IOException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }

  /** The first of three free ports in a row. */
  private static int freePorts() throws IOException {
    for (int attempt = 0; attempt < 50; attempt++) {
      int first;
      try (ServerSocket s = new ServerSocket(0)) {
        first = s.getLocalPort();
      }
      if (first + 2 <= 65_535 && SiteChecks.portTaken("127.0.0.1", first + 1, "--port").isEmpty()
          && SiteChecks.portTaken("127.0.0.1", first + 2, "--port").isEmpty()) {
        return first;
      }
    }
    throw new IOException("no three free ports in a row");
  }
}
