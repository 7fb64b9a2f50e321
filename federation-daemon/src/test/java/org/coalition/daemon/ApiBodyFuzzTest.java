package org.coalition.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Set;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.coalition.api.DaemonApi;
import org.coalition.testbed.fuzz.Mutations;

/**
 * Fuzzing the API's request bodies through the real server (docs/security.md): an operator's
 * participation change and a pilot's report, each as its client writes it, edited at random and
 * sent with the right token, are answered with a success or a JSON error a client can act on
 * (400, 409, 413, 503), never a 500 (a bug) and never a broken connection.
 */
class ApiBodyFuzzTest {
  private static final String OPERATOR = "operator-token-0123456789";
  private static final Set<Integer> ANSWERS = Set.of(200, 204, 400, 409, 413, 503);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private static DaemonApi api;
  private static String pilot;
  private static String token;

  @BeforeContainer
  static void start() throws IOException {
    Path tmp = Files.createTempDirectory("api-fuzz");
    OnePilot one = OnePilot.start(tmp);
    pilot = one.pilot();
    token = one.exec().work(pilot, one.envToken()).orElseThrow().token();
    api = DaemonApi.start(one.exec(), "127.0.0.1", 0, Optional.empty(), OPERATOR.getBytes(StandardCharsets.UTF_8), ApiAbuseIT.health());
  }

  @AfterContainer
  static void stop() {
    api.close();
  }

  @Property(tries = 3000)
  void anEditedParticipationChangeIsAnsweredNeverFailed(@ForAll("levels") String body) throws Exception {
    check(send("PUT", "v1/participation", OPERATOR, body), body);
  }

  @Property(tries = 3000)
  void anEditedPilotReportIsAnsweredNeverFailed(@ForAll("reports") String body) throws Exception {
    check(send("POST", "v1/pilots/" + pilot + "/finish", token, body), body);
  }

  /** Found by the property above: NULs before the body make Jackson read it as UTF-32, which failed outside its parser (500). */
  @Example
  void aBodyThatStartsWithNulsIsRefusedAsNotUtf8() throws Exception {
    String body = "\0\0\0{\"start\": 1.5, \"end\": 2, \"exitCode\": 0, \"stdout\": \"aGkK\", \"stderr\": \"\"}";
    HttpResponse<String> r = send("POST", "v1/pilots/" + pilot + "/finish", token, body);
    assertEquals(400, r.statusCode(), r.body());
    check(r, body);
  }

  private static void check(HttpResponse<String> r, String body) throws IOException {
    assertTrue(ANSWERS.contains(r.statusCode()), "HTTP " + r.statusCode() + " for " + body + ": " + r.body());
    if (r.statusCode() >= 400) {
      assertTrue(JSON.readTree(r.body()).path("error").path("code").isTextual(), "not the API's error: " + r.body());
    }
  }

  private static HttpResponse<String> send(String method, String path, String bearer, String body) throws Exception {
    return HTTP.send(HttpRequest.newBuilder(URI.create(api.uri() + path)).header("Authorization", "Bearer " + bearer)
        .header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(body)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Provide
  Arbitrary<String> levels() {
    return Mutations.of(3, "{\"level\": 3600}", "{\"level\": 0.5}");
  }

  @Provide
  Arbitrary<String> reports() {
    return Mutations.of(3, "{\"start\": 1.5, \"end\": 2, \"exitCode\": 0, \"stdout\": \"aGkK\", \"stderr\": \"\"}",
        "{\"start\": 0, \"end\": 0, \"exitCode\": 255}");
  }
}
