package org.coalition.cli;

import static org.coalition.testbed.Eventually.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The local trial runs as shipped: {@code java -jar coalition.jar trial docs/examples/site-local.yaml}
 * starts ZooKeeper, the federation and the site's daemon, which becomes ready and live; SIGTERM
 * stops it cleanly, and the folder the trial made is gone.
 */
class TrialIT {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path tmp;
  private int port;

  /** {@code coalition trial FILE} from the shipped jar, its API on a free port, its output in {@code log}. */
  private Process trial(Path file, Path log) throws Exception {
    try (ServerSocket probe = new ServerSocket(0)) {
      port = probe.getLocalPort();
    }
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    return new ProcessBuilder(java, "-jar", Path.of("target", "coalition.jar").toString(), "trial", file.toString(), "--port",
        Integer.toString(port)).redirectErrorStream(true).redirectOutput(log.toFile()).start();
  }

  private void waitReady(Path log) {
    HttpClient http = HttpClient.newHttpClient();
    waitFor("the trial's daemon to be ready (its log: " + log + ")", Duration.ofSeconds(90), () -> {
      try {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/health/ready")).build(),
            HttpResponse.BodyHandlers.ofString()).statusCode() == 200;
      } catch (IOException e) {
        return false;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    });
  }

  /**
   * The site file's logging: at level info, Coalition's INFO events as JSON; at level warn, none of
   * them (the same daemon start, which logs no warning of its own).
   */
  @Test
  void theSiteFilesLoggingSetsTheFormatAndLevel() throws Exception {
    List<JsonNode> info = jsonEvents("info");
    assertTrue(info.stream().anyMatch(e -> ours(e) && e.path("level").asText().equals("INFO")),
        "at level info, Coalition's INFO events, as JSON: " + info);
    for (JsonNode e : jsonEvents("warn")) {
      assertFalse(ours(e) && e.path("level").asText().equals("INFO"), "no INFO event of Coalition's loggers at level warn: " + e);
    }
  }

  private static boolean ours(JsonNode event) {
    return event.path("loggerName").asText().startsWith("org.coalition");
  }

  /** The log events of a trial of the example at {@code level} with JSON logging; any other line of the log must be the commands' own words. */
  private List<JsonNode> jsonEvents(String level) throws Exception {
    Path file = Files.writeString(tmp.resolve("site-" + level + ".yaml"), Files.readString(Path.of("..", "docs", "examples", "site-local.yaml"))
        + "logging:\n  level: " + level + "\n  format: json\n");
    Path log = tmp.resolve(level + ".log");
    Process trial = trial(file, log);
    try {
      waitReady(log);
    } finally {
      trial.destroy();
    }
    assertTrue(trial.waitFor(60, TimeUnit.SECONDS), "the trial stopped on SIGTERM");
    List<JsonNode> events = new ArrayList<>();
    for (String line : Files.readAllLines(log)) {
      if (line.startsWith("{")) {
        events.add(JSON.readTree(line));
      } else {
        assertTrue(line.startsWith("coalition trial: ") || line.startsWith("coalition daemon: "), "a log line that is not JSON: " + line);
      }
    }
    return events;
  }

  @Test
  void theShippedExampleRunsAsATrialAndStopsClean() throws Exception {
    Path log = tmp.resolve("trial.log");
    Process trial = trial(Path.of("..", "docs", "examples", "site-local.yaml"), log);
    try {
      waitReady(log);
      HttpClient http = HttpClient.newHttpClient();
      URI api = URI.create("http://127.0.0.1:" + port + "/");
      JsonNode sites = JSON.readTree(http.send(HttpRequest.newBuilder(api.resolve("v1/sites")).build(),
          HttpResponse.BodyHandlers.ofString()).body());
      boolean trialLive = false;
      for (JsonNode s : sites.path("sites")) {
        trialLive |= s.path("site").asText().equals("trial") && s.path("live").asBoolean();
      }
      assertTrue(trialLive, "site trial is live in its federation: " + sites);
      assertTrue(sites.toString().contains("\"north\""), "the home its accounts name is a member: " + sites);
    } finally {
      trial.destroy(); // SIGTERM
    }
    assertTrue(trial.waitFor(60, TimeUnit.SECONDS), "the trial stopped on SIGTERM");
    String out = Files.readString(log);
    assertEquals(143, trial.exitValue(), "as a JVM stopped by SIGTERM after its hooks ran (the unit's SuccessExitStatus): " + out);
    assertTrue(out.contains("coalition daemon: site trial stopped"), out);
    Matcher made = Pattern.compile("runs on (\\S+)/trial\\.yaml").matcher(out);
    assertTrue(made.find(), out);
    assertFalse(Files.exists(Path.of(made.group(1))), "the trial's folder is removed: " + made.group(1));
  }

  /**
   * #51, problem 7: {@code trial} of the shipped Slurm example failed on the API key it could have
   * made, and its errors named a line of its own deleted copy. Now it brings the API's key too,
   * and what is left to put right is named in the user's file, before anything starts.
   */
  @Test
  void theShippedSlurmExampleGetsItsProblemsNamedInItsOwnFile() throws Exception {
    Path example = Path.of("..", "docs", "examples", "site-slurm.yaml");
    CliRun r = CliRun.of("trial", example.toString());
    assertEquals(ExitCodes.BAD_INPUT, r.exit(), r.err());
    List<String> lines = r.err().lines().toList();
    assertEquals(List.of("coalition trial: " + example + ":17: handlers[0].jwt-key: /etc/slurm/jwt_hs256.key: Slurm's JWT key (the file"
        + " AuthAltParameters=jwt_key names in slurm.conf) is missing",
        "coalition trial: " + example + ":18: handlers[0].results: /var/spool/coalition/results: the results folder (make it, owned by the"
        + " daemon's user, mode 0755; docs/jobs.md) is missing"), lines.subList(0, 2));
    assertEquals(3, lines.size(), r.err());

    // with the cluster's files in place, the trial makes the rest (the API's TLS key among them) and reaches for slurmrestd
    Path key = Files.write(tmp.resolve("jwt.key"), new byte[32]);
    Path results = Files.createDirectory(tmp.resolve("results"));
    Path site = Files.writeString(tmp.resolve("site-slurm.yaml"), Files.readString(example).replace("/etc/slurm/jwt_hs256.key", key.toString())
        .replace("/var/spool/coalition/results", results.toString()).replace("http://slurmctl.north:6820", "http://127.0.0.1:9"));
    Path log = tmp.resolve("trial-slurm.log");
    Process trial = trial(site, log);
    try {
      waitFor("the trial's daemon to reach for slurmrestd (its log: " + log + ")", Duration.ofSeconds(90),
          () -> read(log).contains("(attempt 1;"));
    } finally {
      trial.destroy(); // SIGTERM
    }
    assertTrue(trial.waitFor(60, TimeUnit.SECONDS), "the trial stopped on SIGTERM");
    String out = read(log);
    assertTrue(out.contains("coalition daemon: " + site + ":13: handlers: ping: cannot reach slurmrestd at http://127.0.0.1:9"), out);
    assertFalse(Pattern.compile("coalition-trial-[0-9]+/[a-z]+\\.yaml:[0-9]+").matcher(out).find(), "no line of the trial's copy: " + out);
  }

  private static String read(Path log) {
    try {
      return Files.readString(log);
    } catch (IOException e) {
      return "";
    }
  }
}
