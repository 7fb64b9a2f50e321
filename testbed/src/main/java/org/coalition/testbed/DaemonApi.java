package org.coalition.testbed;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** A {@code coalition daemon}'s HTTP API on loopback, as the end-to-end tests and benchmarks read it (plain HTTP, no token: reads only). */
public final class DaemonApi {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();

  /** GET {@code path} (e.g. {@code v1/status}) of the daemon answering on {@code port}: its JSON, or null for 404. */
  public JsonNode get(int port, String path) throws IOException, InterruptedException {
    HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/" + path)).timeout(Duration.ofSeconds(10))
        .build(), HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() == 404) {
      return null;
    }
    if (r.statusCode() != 200) {
      throw new IOException(path + " on port " + port + ": HTTP " + r.statusCode() + " " + r.body());
    }
    return JSON.readTree(r.body());
  }

  /** How many sites the daemon on {@code port} sees live ({@code v1/sites}); -1 while it does not answer. */
  public int liveSites(int port) {
    try {
      int live = 0;
      for (JsonNode s : get(port, "v1/sites").path("sites")) {
        live += s.path("live").asBoolean() ? 1 : 0;
      }
      return live;
    } catch (IOException | InterruptedException e) {
      return -1;
    }
  }
}
