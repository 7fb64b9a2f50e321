package org.coalition.slurm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.coalition.testbed.Instance;
import org.coalition.testbed.Testbed;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Smoke test: the real slurmrestd of both testbed Slurm versions answers a ping authenticated
 * with a JWT, and refuses one without. Needs {@code testbed/up slurm22 slurm24}.
 */
@Tag("testbed") // needs testbed/up's systems: .ci/run runs it once they are up
class SlurmrestdSmokeIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  // slurmrestd answers the JDK's default HTTP/2 upgrade (h2c) with "405 NOT ALLOWED" and a
  // response the client cannot parse: speak HTTP/1.1 only.
  private static final HttpClient HTTP = HttpClient.newBuilder()
      .version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(5))
      .build();

  @Test
  void slurm2205AnswersPingOnV0038() throws Exception {
    Instance slurm = Testbed.require("slurm22-c1");
    JsonNode body = ping(slurm, "v0.0.38", 200);
    assertEquals("UP", body.at("/pings/0/ping").asText(), body::toPrettyString);
    String release = body.at("/meta/Slurm/release").asText();
    assertTrue(release.startsWith("22.05."), release);
    System.out.printf("[smoke] %s: slurmrestd %s ping UP, Slurm %s%n", slurm.name(), "v0.0.38", release);
  }

  @Test
  void slurm2411AnswersPingOnEveryRestVersion() throws Exception {
    Instance slurm = Testbed.require("slurm24-c1");
    for (String version : slurm.get("rest.versions").split(",")) {
      JsonNode body = ping(slurm, version, 200);
      assertEquals("UP", body.at("/pings/0/pinged").asText(), body::toPrettyString);
      String release = body.at("/meta/slurm/release").asText();
      assertTrue(release.startsWith("24.11."), release);
      System.out.printf("[smoke] %s: slurmrestd %s ping UP, Slurm %s%n", slurm.name(), version, release);
    }
    assertEquals("v0.0.40,v0.0.41,v0.0.42", slurm.get("rest.versions"));
  }

  @Test
  void twoClustersOnOneMachineAreIndependent() throws Exception {
    // .ci/run starts a second 22.05 cluster, c2, beside c1: its own name, ports and JWT key.
    Instance c1 = Testbed.require("slurm22-c1");
    Instance c2 = Testbed.require("slurm22-c2");
    for (Instance cluster : new Instance[] {c1, c2}) {
      JsonNode body = ping(cluster, "v0.0.38", cluster.readFirstLine("rest.token.file"), 200);
      assertEquals("UP", body.at("/pings/0/ping").asText(), body::toPrettyString);
    }
    assertTrue(!c1.get("rest.url").equals(c2.get("rest.url")), "each cluster has its own slurmrestd");
    // slurmrestd passes the token on; c2's slurmctld rejects a token signed with c1's key, and
    // 22.05 reports that as HTTP 500 with an error list (not 401): refused all the same.
    // the same request with c2's own token is answered: the refusal below is the token's doing, not a broken c2
    HttpResponse<String> own = send(c2, "v0.0.38", c2.readFirstLine("rest.token.file"));
    assertEquals(200, own.statusCode(), own::body);
    HttpResponse<String> foreign = send(c2, "v0.0.38", c1.readFirstLine("rest.token.file"));
    assertTrue(foreign.statusCode() == 401 || foreign.statusCode() == 500, () -> "401, or 22.05's 500 for a token slurmctld rejects: "
        + foreign.statusCode() + " " + foreign.body());
    JsonNode errors = JSON.readTree(foreign.body()).path("errors");
    assertTrue(errors.isArray() && errors.size() > 0, foreign::body);
    System.out.printf("[smoke] slurm22-c1 and slurm22-c2 run side by side; c2 refuses c1's token (HTTP %d: %s)%n",
        foreign.statusCode(), errors.at("/0/description").asText());
  }

  @Test
  void requestsWithoutATokenAreRefused() throws Exception {
    // The refusal is a plain-text body ("Authentication failure"), not JSON.
    ping(Testbed.require("slurm22-c1"), "v0.0.38", null, 401);
    ping(Testbed.require("slurm24-c1"), "v0.0.42", null, 401);
  }

  private JsonNode ping(Instance slurm, String version, int expectedStatus) throws IOException, InterruptedException {
    return ping(slurm, version, slurm.readFirstLine("rest.token.file"), expectedStatus);
  }

  /** GET .../ping with the given token (null: none) and check the status. */
  private JsonNode ping(Instance slurm, String version, String token, int expectedStatus)
      throws IOException, InterruptedException {
    HttpResponse<String> response = send(slurm, version, token);
    assertEquals(expectedStatus, response.statusCode(), () -> slurm.name() + " " + version + ": " + response.body());
    return expectedStatus == 200 ? JSON.readTree(response.body()) : JSON.nullNode();
  }

  private HttpResponse<String> send(Instance slurm, String version, String token)
      throws IOException, InterruptedException {
    return get(slurm, "/slurm/" + version + "/ping", token);
  }

  /**
   * A GET of {@code path} from the cluster's slurmrestd, without the handler, with the given token
   * (null: none); also the benchmark's plain read.
   */
  static HttpResponse<String> get(Instance slurm, String path, String token) throws IOException, InterruptedException {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(slurm.get("rest.url") + path))
        .timeout(Duration.ofSeconds(60))
        .GET();
    if (token != null) {
      request.header("X-SLURM-USER-NAME", slurm.get("rest.user")).header("X-SLURM-USER-TOKEN", token);
    }
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }
}
