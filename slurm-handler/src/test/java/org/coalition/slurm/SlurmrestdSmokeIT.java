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
import org.junit.jupiter.api.Test;

/**
 * Smoke test: the real slurmrestd of both testbed Slurm versions answers a ping authenticated
 * with a JWT, and refuses one without. Needs {@code testbed/up slurm22 slurm24}.
 */
class SlurmrestdSmokeIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  // slurmrestd answers the JDK's default HTTP/2 upgrade (h2c) with "405 NOT ALLOWED" and a
  // response the client cannot parse: speak HTTP/1.1 only.
  private final HttpClient http = HttpClient.newBuilder()
      .version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(5))
      .build();

  @Test
  void slurm2205AnswersPingOnV0038() throws Exception {
    Instance slurm = Testbed.require("slurm22-c1");
    JsonNode body = ping(slurm, "v0.0.38", true, 200);
    assertEquals("UP", body.at("/pings/0/ping").asText(), body::toPrettyString);
    String release = body.at("/meta/Slurm/release").asText();
    assertTrue(release.startsWith("22.05."), release);
    System.out.printf("[smoke] %s: slurmrestd %s ping UP, Slurm %s%n", slurm.name(), "v0.0.38", release);
  }

  @Test
  void slurm2411AnswersPingOnEveryRestVersion() throws Exception {
    Instance slurm = Testbed.require("slurm24-c1");
    for (String version : slurm.get("rest.versions").split(",")) {
      JsonNode body = ping(slurm, version, true, 200);
      assertEquals("UP", body.at("/pings/0/pinged").asText(), body::toPrettyString);
      String release = body.at("/meta/slurm/release").asText();
      assertTrue(release.startsWith("24.11."), release);
      System.out.printf("[smoke] %s: slurmrestd %s ping UP, Slurm %s%n", slurm.name(), version, release);
    }
    assertEquals("v0.0.40,v0.0.41,v0.0.42", slurm.get("rest.versions"));
  }

  @Test
  void requestsWithoutATokenAreRefused() throws Exception {
    // The refusal is a plain-text body ("Authentication failure"), not JSON.
    ping(Testbed.require("slurm22-c1"), "v0.0.38", false, 401);
    ping(Testbed.require("slurm24-c1"), "v0.0.42", false, 401);
  }

  private JsonNode ping(Instance slurm, String version, boolean withToken, int expectedStatus)
      throws IOException, InterruptedException {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(slurm.get("rest.url") + "/slurm/" + version + "/ping"))
        .timeout(Duration.ofSeconds(10))
        .GET();
    if (withToken) {
      request.header("X-SLURM-USER-NAME", slurm.get("rest.user"))
          .header("X-SLURM-USER-TOKEN", slurm.readFirstLine("rest.token.file"));
    }
    HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(expectedStatus, response.statusCode(), () -> slurm.name() + " " + version + ": " + response.body());
    return expectedStatus == 200 ? JSON.readTree(response.body()) : JSON.nullNode();
  }
}
