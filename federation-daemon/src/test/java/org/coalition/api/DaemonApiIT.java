package org.coalition.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.coalition.coordination.MutableClock;
import org.coalition.coordination.memory.InMemoryFederation;
import org.coalition.daemon.Broker;
import org.coalition.daemon.FakeBatch;
import org.coalition.daemon.HostAddresses;
import org.coalition.daemon.LocalFederation;
import org.coalition.daemon.LocalFederation.Site;
import org.coalition.daemon.TestSettings;
import org.coalition.daemon.outputs.RunOutputs;
import org.coalition.handler.HandlerException;
import org.coalition.policy.fairness.Utility;
import org.coalition.testbed.Command;
import org.coalition.testbed.Ports;
import org.coalition.testbed.Testbed;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The HTTP API on a real server: pilots run a job through it, people and scripts read and change what they may. */
@Tag("testbed") // needs testbed/up's systems: .ci/run runs it once they are up
class DaemonApiIT {
  private static final String OPERATOR = "operator-token-0123456789";
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path tmp;
  private LocalFederation fed;
  private final Map<String, DaemonApi> apis = new HashMap<>();
  private final HttpClient http = HttpClient.newHttpClient();

  @BeforeEach
  void open() throws Exception {
    fed = new LocalFederation(tmp);
  }

  @AfterEach
  void close() {
    apis.values().forEach(DaemonApi::close);
    fed.close();
  }

  private DaemonApi api(Broker broker) {
    return api(broker, 0);
  }

  private DaemonApi api(Broker broker, int port) {
    return apis.computeIfAbsent(broker.settings().site(), s -> DaemonApi.start(broker, "127.0.0.1", port, Optional.empty(),
        OPERATOR.getBytes(StandardCharsets.UTF_8), LocalHealth.INSTANCE));
  }

  private HttpResponse<String> send(Broker broker, String method, String path, String token, String body) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(api(broker).uri().resolve(path)).method(method,
        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
    if (token != null) {
      b.header("Authorization", "Bearer " + token);
    }
    if (body != null) {
      b.header("Content-Type", "application/json");
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  private JsonNode get(Broker broker, String path) throws Exception {
    HttpResponse<String> r = send(broker, "GET", path, null, null);
    assertEquals(200, r.statusCode(), r.body());
    return JSON.readTree(r.body());
  }

  private static void assertError(HttpResponse<String> r, int status, String code) throws Exception {
    assertEquals(status, r.statusCode(), r.body());
    assertEquals(code, JSON.readTree(r.body()).path("error").path("code").asText(), r.body());
    assertTrue(!JSON.readTree(r.body()).path("error").path("message").asText().isEmpty(), r.body());
  }

  @Test
  void anOutputTooLargeForZooKeeperIsServedToTheHomeSiteByItsExecutor() throws Exception {
    int port = Ports.free();
    Site home = fed.site("home", 1);
    Site exec = fed.site("exec", 2, broker -> new HttpPilotClient(api(broker).uri()), "http://127.0.0.1:" + port + "/");
    api(exec.broker(), port);
    home.broker().start();
    exec.broker().start();
    home.local().submit(LocalFederation.ME, 1, 60, "sleep 2\n");
    String id = home.local().submit(LocalFederation.ME, 1, 60, "head -c 300000 /dev/zero | tr '\\0' x\necho; echo err >&2\nexit 5\n");
    fed.roundsUntil("the job ends at home", () -> LocalFederation.job(home, id).done());
    assertEquals("x".repeat(300_000) + "\n", LocalFederation.job(home, id).stdout());
    assertEquals(5, LocalFederation.job(home, id).exitCode());
    try (var spool = Files.list(tmp.resolve("spool-exec"))) {
      var stored = spool.map(f -> f.getFileName().toString()).filter(n -> !n.startsWith(".")).toList();
      assertEquals(1, stored.size(), "one output in the executor's spool: " + stored);
      assertTrue(stored.get(0).matches("home~" + id + "-.*-[0-9a-f]{32}"), stored.get(0));
      assertEquals(200, send(exec.broker(), "GET", "v1/outputs/" + stored.get(0), null, null).statusCode());
      String guessed = stored.get(0).substring(0, stored.get(0).length() - 32) + "0".repeat(32);
      assertError(send(exec.broker(), "GET", "v1/outputs/" + guessed, null, null), 404, "NOT_FOUND");
      // an encoded '/' in a path is ambiguous: refused by the server before any handler sees it
      assertError(send(exec.broker(), "GET", "v1/outputs/..%2F..%2Fetc%2Fpasswd", null, null), 400, "INVALID");
    }
  }

  @Test
  void aPilotRunsAJobThroughTheApiAndTheHomeReportsIt() throws Exception {
    Site home = fed.site("home", 1);
    Site exec = fed.site("exec", 2, broker -> new HttpPilotClient(api(broker).uri()));
    home.broker().start();
    exec.broker().start();
    home.local().submit(LocalFederation.ME, 1, 60, "sleep 2\n");
    String id = home.local().submit(LocalFederation.ME, 1, 60, "echo through http\nexit 4\n");
    fed.roundsUntil("the job ends at home", () -> LocalFederation.job(home, id).done());
    assertEquals("through http\n", LocalFederation.job(home, id).stdout());
    assertEquals(4, LocalFederation.job(home, id).exitCode());

    JsonNode job = get(home.broker(), "v1/jobs/" + id);
    assertEquals("replayed", job.path("state").asText());
    assertEquals("exec", job.path("executor").asText());
    assertEquals(4, job.path("exitCode").asInt());
    assertError(send(home.broker(), "GET", "v1/jobs/999", null, null), 404, "NOT_FOUND");
    assertError(send(home.broker(), "GET", "v1/jobs/..%2Fx", null, null), 400, "INVALID");

    fed.roundsUntil("the ledger holds the run", () -> home.coordination().ledgers().containsKey("exec"));
    JsonNode ledger = get(home.broker(), "v1/ledger");
    assertEquals("SIMPL", ledger.path("utility").asText());
    JsonNode execRow = ledger.path("sites").get(0);
    assertEquals("exec", execRow.path("site").asText());
    assertTrue(execRow.path("priority").asDouble() > 0, ledger.toString());
    assertEquals(1, execRow.path("jobsExecuted").asInt());

    JsonNode sites = get(exec.broker(), "v1/sites");
    assertEquals(2, sites.path("sites").size());
    assertTrue(sites.path("sites").get(0).path("live").asBoolean());

    JsonNode status = get(exec.broker(), "v1/status");
    assertEquals("exec", status.path("site").asText());
    assertEquals(2, status.path("totalCores").asInt());
    assertEquals(1, status.path("decisions").path("claim directcontr").asInt(), status.toString());

    String metrics = send(exec.broker(), "GET", "metrics", null, null).body();
    // samples by name and label set (the Prometheus client writes labels in its own order)
    Exposition.value(metrics, "coalition_reservation_ratio", Map.of("site", "exec"));
    assertEquals(1.0, Exposition.value(metrics, "coalition_decisions_total", Map.of("site", "exec", "decision", "claim", "reason",
        "directcontr")), metrics);
    Exposition.value(metrics, "coalition_ledger", Map.of("site", "exec", "value", "priority"));
    assertTrue(send(exec.broker(), "GET", "openapi.yaml", null, null).body().startsWith("openapi: 3.0.3"));
  }

  @Test
  void healthSaysWhetherTheDaemonIsAliveAndReadyAndWhyNot() throws Exception {
    MutableClock clock = new MutableClock(Instant.now());
    FakeBatch batch = new FakeBatch(4);
    Broker b = new Broker(TestSettings.builder("solo").participation(1000).utility(Utility.SIMPL)
        .maxPendingPilots(4).build(), new InMemoryFederation(clock).connect("solo"), batch,
        Optional.empty(), new RunOutputs(tmp.resolve("solo")), clock);
    HttpResponse<String> notYet = send(b, "GET", "v1/health/ready", null, null);
    assertEquals(503, notYet.statusCode(), notYet.body());
    assertEquals("not joined yet", JSON.readTree(notYet.body()).path("checks").path("federation").asText());
    assertEquals(200, send(b, "GET", "v1/health/live", null, null).statusCode(), "starting is alive");

    b.start();
    b.tick();
    JsonNode ready = get(b, "v1/health/ready");
    assertTrue(ready.path("ok").asBoolean(), ready.toString());
    assertTrue(ready.path("checks").path("batchSystem").asText().startsWith("up, last observed 0 s ago"), ready.toString());
    assertTrue(send(b, "GET", "metrics", null, null).body().contains("coalition_batch_system_up{site=\"solo\"} 1.0"));

    batch.observeFails = new HandlerException(HandlerException.Category.UNAVAILABLE, "slurmrestd at http://127.0.0.1:1 refused the connection");
    clock.advance(Duration.ofSeconds(40));
    b.tick();
    HttpResponse<String> down = send(b, "GET", "v1/health/ready", null, null);
    assertEquals(503, down.statusCode(), down.body());
    assertEquals("down (slurmrestd at http://127.0.0.1:1 refused the connection), last observed 40 s ago",
        JSON.readTree(down.body()).path("checks").path("batchSystem").asText());
    String metrics = send(b, "GET", "metrics", null, null).body();
    assertTrue(metrics.contains("coalition_batch_system_up{site=\"solo\"} 0.0"), metrics);
    assertTrue(metrics.contains("coalition_batch_system_observation_age_seconds{site=\"solo\"} 40.0"), metrics);
    assertEquals(200, send(b, "GET", "v1/health/live", null, null).statusCode(), "a batch system down is not a dead daemon");

    clock.advance(Duration.ofMinutes(3)); // no round for three minutes: the daemon hangs
    HttpResponse<String> stalled = send(b, "GET", "v1/health/live", null, null);
    assertEquals(503, stalled.statusCode(), stalled.body());
    assertTrue(JSON.readTree(stalled.body()).path("checks").path("rounds").asText().contains("stalled"), stalled.body());

    batch.observeFails = null;
    b.tick();
    assertTrue(get(b, "v1/health/ready").path("ok").asBoolean());
    assertEquals(200, send(b, "GET", "v1/health/live", null, null).statusCode());
  }

  @Test
  void aUserOnAnotherHostReadsTheirOwnJobWithARealMungeCredentialAndNoOneElsesJob() throws Exception {
    Testbed.require("slurm22-c1"); // the testbed's munged, on this host
    Site s = fed.site("east", 1);
    String id = s.local().submit("coalition-user", 1, 60, "#!/bin/sh\ntrue\n");
    String address = HostAddresses.outward().getHostAddress();
    DaemonApi api = DaemonApi.start(s.broker(), address, 0, Optional.empty(), OPERATOR.getBytes(StandardCharsets.UTF_8), LocalHealth.INSTANCE,
        Optional.of(new MungeUsers(List.of("unmunge"))));
    apis.put("east-remote", api);
    Map<String, HttpResponse<String>> answers = new LinkedHashMap<>();
    for (String who : List.of("coalition-user", "root", "nobody-at-all")) {
      HttpRequest.Builder b = HttpRequest.newBuilder(api.uri().resolve("v1/jobs/" + id)).GET();
      if (!who.equals("nobody-at-all")) {
        String credential = Command.of(Path.of("/usr/bin/setpriv"), "--reuid=" + who, "--regid=" + who, "--init-groups", "/usr/bin/munge", "-n")
            .run().requireSuccess().stdout().strip();
        b.header("Authorization", "Munge " + credential);
      }
      answers.put(who, http.send(b.build(), HttpResponse.BodyHandlers.ofString()));
    }
    // through the door, the job's owner is told what the federation knows of it: nothing yet, it runs at home
    assertError(answers.get("coalition-user"), 404, "NOT_FOUND");
    assertError(answers.get("root"), 403, "FORBIDDEN");
    assertTrue(answers.get("root").body().contains("is not root's"), answers.get("root").body());
    assertError(answers.get("nobody-at-all"), 401, "UNAUTHORIZED");
  }

  @Test
  void participationIsReadByAnyoneAndChangedOnlyWithTheOperatorToken() throws Exception {
    Site s = fed.site("east", 1);
    s.broker().start();
    assertEquals(10_000, get(s.broker(), "v1/participation").path("level").asDouble());
    assertError(send(s.broker(), "PUT", "v1/participation", null, "{\"level\": 5}"), 401, "UNAUTHORIZED");
    assertError(send(s.broker(), "PUT", "v1/participation", "guess-guess-guess", "{\"level\": 5}"), 403, "FORBIDDEN");
    assertError(send(s.broker(), "PUT", "v1/participation", OPERATOR, "{\"level\": -5}"), 400, "INVALID");
    assertError(send(s.broker(), "PUT", "v1/participation", OPERATOR, "{\"level\": "), 400, "INVALID");
    assertError(send(s.broker(), "PUT", "v1/participation", OPERATOR, "{\"lvl\": 5}"), 400, "INVALID");
    assertError(send(s.broker(), "PUT", "v1/participation", OPERATOR, "{\"level\": 1e300}"), 400, "INVALID");
    HttpResponse<String> text = send(s.broker(), "PUT", "v1/participation", OPERATOR, "{\"level\": \"lots\"}");
    assertError(text, 400, "INVALID");
    assertEquals("the request body is not the JSON expected: field 'level' must be a number",
        JSON.readTree(text.body()).path("error").path("message").asText(), "in the API's words, no Java type");
    assertEquals(10_000, s.broker().participation(), "nothing changed by refused requests");
    HttpResponse<String> ok = send(s.broker(), "PUT", "v1/participation", OPERATOR, "{\"level\": 3600}");
    assertEquals(200, ok.statusCode(), ok.body());
    assertEquals(3600, JSON.readTree(ok.body()).path("level").asDouble());
    assertEquals(3600, s.broker().participation());
  }

  /**
   * The site's contracts are read as any other view, and an acknowledgement is an operator write:
   * refused without the token; an id that is not one of the site's contracts, read or acknowledged, 404 in words.
   */
  @Test
  void contractsAreReadByThisHostAndAcknowledgedOnlyWithTheOperatorToken() throws Exception {
    Site s = fed.site("east", 1);
    s.broker().start();
    JsonNode none = get(s.broker(), "v1/contracts");
    assertEquals("east", none.path("site").asText());
    assertTrue(none.path("contracts").isArray() && none.path("contracts").isEmpty(), none.toString());
    String id = "1796342400-nodes-west-east";
    assertError(send(s.broker(), "POST", "v1/contracts/" + id + "/acknowledge", null, null), 401, "UNAUTHORIZED");
    assertError(send(s.broker(), "POST", "v1/contracts/" + id + "/acknowledge", "guess-guess-guess", null), 403, "FORBIDDEN");
    HttpResponse<String> unknown = send(s.broker(), "POST", "v1/contracts/" + id + "/acknowledge", OPERATOR, null);
    assertError(unknown, 404, "NOT_FOUND");
    assertTrue(JSON.readTree(unknown.body()).path("error").path("message").asText().contains("site east has no contract " + id),
        unknown.body());
    HttpResponse<String> notShown = send(s.broker(), "GET", "v1/contracts/" + id, null, null);
    assertError(notShown, 404, "NOT_FOUND");
    assertTrue(notShown.body().contains("site east has no contract " + id), notShown.body());
    assertTrue(get(s.broker(), "v1/contracts").path("contracts").isEmpty(), "nothing written by refused requests");
  }

  /** The dashboard's page and files come from this jar (uPlot from its WebJar), and the two reads only it makes answer. */
  @Test
  void theDashboardIsServedWithItsFilesAndTheReadsItMakes() throws Exception {
    Site s = fed.site("east", 1);
    s.broker().start();
    HttpResponse<String> page = send(s.broker(), "GET", "", null, null);
    assertEquals(200, page.statusCode(), page.body());
    assertTrue(page.headers().firstValue("Content-Type").orElse("").startsWith("text/html"), page.headers().toString());
    assertTrue(page.body().contains("<script src=\"ui/dashboard.js\"></script>"), page.body());
    assertTrue(page.headers().firstValue("Content-Security-Policy").orElse("").contains("default-src 'self'"), "no outside resource");
    for (String file : List.of("dashboard.js", "dashboard.css", "uPlot.iife.min.js", "uPlot.min.css")) {
      HttpResponse<String> r = send(s.broker(), "GET", "ui/" + file, null, null);
      assertEquals(200, r.statusCode(), file + ": " + r.body());
      assertTrue(r.body().length() > 500, file);
    }
    assertError(send(s.broker(), "GET", "ui/..%2Fopenapi.yaml", null, null), 400, "INVALID");
    assertError(send(s.broker(), "GET", "ui/secrets.txt", null, null), 404, "NOT_FOUND");
    assertEquals("east", get(s.broker(), "v1/decisions").path("site").asText());
    assertTrue(get(s.broker(), "v1/flows").path("flows").isArray());
  }

  @Test
  void aWrongMethodMediaTypeOrAcceptGetsItsOwnStatusAndSaysWhatIsTaken() throws Exception {
    Site s = fed.site("east", 1);
    s.broker().start();
    HttpResponse<String> delete = send(s.broker(), "DELETE", "v1/participation", OPERATOR, null);
    assertError(delete, 405, "METHOD_NOT_ALLOWED");
    assertTrue(delete.body().contains("it takes GET, OPTIONS, PUT") || delete.body().contains("it takes GET, HEAD, OPTIONS, PUT"),
        delete.body());
    HttpResponse<String> form = http.send(HttpRequest.newBuilder(api(s.broker()).uri().resolve("v1/participation"))
        .PUT(HttpRequest.BodyPublishers.ofString("level=5")).header("Content-Type", "application/x-www-form-urlencoded")
        .header("Authorization", "Bearer " + OPERATOR).build(), HttpResponse.BodyHandlers.ofString());
    assertError(form, 415, "UNSUPPORTED_MEDIA_TYPE");
    HttpResponse<String> xml = http.send(HttpRequest.newBuilder(api(s.broker()).uri().resolve("v1/participation"))
        .header("Accept", "application/xml").build(), HttpResponse.BodyHandlers.ofString());
    assertError(xml, 406, "NOT_ACCEPTABLE");
    for (HttpResponse<String> r : List.of(delete, form, xml)) {
      assertTrue(!r.body().contains("java.") && !r.body().contains("jakarta.") && !r.body().contains("Exception"), r.body());
    }
  }

  @Test
  void pilotEndpointsRefuseWhoeverLacksThePilotsToken() throws Exception {
    Site s = fed.site("east", 1);
    s.broker().start();
    assertError(send(s.broker(), "POST", "v1/pilots/east-1-abc/work", null, ""), 401, "UNAUTHORIZED");
    assertError(send(s.broker(), "POST", "v1/pilots/east-1-abc/work", "not-the-token", ""), 403, "FORBIDDEN");
    // a report with someone else's token: refused for the token before its body is read, well-formed or not
    assertError(send(s.broker(), "POST", "v1/pilots/east-1-abc/finish", "not-the-token",
        "{\"start\": 1, \"end\": 2, \"exitCode\": 0, \"stdout\": \"\", \"stderr\": \"\"}"), 403, "FORBIDDEN");
    assertError(send(s.broker(), "POST", "v1/pilots/east-1-abc/finish", "not-the-token",
        "{\"start\": 1, \"end\": 2, \"exitCode\": 0, \"stdout\": \"!!\"}"), 403, "FORBIDDEN");
    assertError(send(s.broker(), "GET", "v1/nothing-here", null, null), 404, "NOT_FOUND");
  }
}
