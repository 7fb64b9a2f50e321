package org.coalition.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.coalition.config.SiteConfig;
import org.coalition.config.SiteConfigReader;
import org.coalition.handler.config.TextFile;
import picocli.CommandLine.Option;

/**
 * How the reading and operator commands reach a daemon: {@code --url}, or the http section of
 * {@code --config FILE}, or {@code COALITION_URL}, or http://127.0.0.1:8443.
 */
final class ApiClient {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** The options every client command has. */
  static final class Target {
    @Option(names = "--url", paramLabel = "URL", description = "The daemon's API, e.g. https://north:8443 (default: from --config, else $COALITION_URL, else http://127.0.0.1:8443).")
    String url;

    @Option(names = "--config", paramLabel = "FILE", description = "A site file: the API address and the operator token file are taken from it.")
    Path config;

    @Option(names = "--json", description = "Print the daemon's answer as JSON on stdout (for scripts).")
    boolean json;

    URI uri() throws IOException {
      String u = url;
      if (u == null && config != null) {
        SiteConfig.Http h = SiteConfigReader.read(config).http();
        String host = h.bind().equals("0.0.0.0") || h.bind().equals("::") ? "127.0.0.1" : h.bind();
        u = (h.tls().isPresent() ? "https://" : "http://") + host + ":" + h.port();
      }
      if (u == null) {
        u = System.getenv().getOrDefault("COALITION_URL", "http://127.0.0.1:8443");
      }
      if (!u.startsWith("http://") && !u.startsWith("https://")) {
        throw new IllegalArgumentException("--url must start with http:// or https://, was '" + u + "'");
      }
      return URI.create(u.endsWith("/") ? u : u + "/");
    }

    /**
     * The operator token, sent with reads when this user can read it: from {@code --config}'s
     * token file. A daemon answers reads from other hosts only with it; reads on its own host
     * need none.
     */
    Optional<String> readToken() throws IOException {
      if (config == null) {
        return Optional.empty();
      }
      Path file = SiteConfigReader.read(config).http().operatorTokenFile();
      return Files.isReadable(file) ? Optional.of(TextFile.firstLine(file, "the operator token file")) : Optional.empty();
    }

    Path operatorTokenFile(Path given) throws IOException {
      if (given != null) {
        return given;
      }
      if (config != null) {
        return SiteConfigReader.read(config).http().operatorTokenFile();
      }
      throw new IllegalArgumentException("give --token-file FILE (the operator token) or --config SITE-FILE");
    }
  }

  /** The daemon answered with an error: its code and message. */
  static final class Failed extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Failed(String message) {
      super(message);
    }
  }

  private ApiClient() {}

  /** The daemon's answer read into its API record; an answer of another shape is reported, not thrown as a stack. */
  static <T> T read(JsonNode answer, Class<T> type) {
    try {
      return JSON.treeToValue(answer, type);
    } catch (IOException | IllegalArgumentException e) {
      throw new Failed("the daemon's answer is not a " + type.getSimpleName() + " of this version's API: " + e.getMessage());
    }
  }

  static JsonNode get(URI base, String path, Optional<String> token) throws IOException {
    HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(path)).GET();
    token.ifPresent(t -> request.header("Authorization", "Bearer " + t));
    return send(base, request);
  }

  /** A read with the {@code Authorization} header {@code authorization} ({@code Munge CREDENTIAL}). */
  static JsonNode get(URI base, String path, String authorization) throws IOException {
    return send(base, HttpRequest.newBuilder(base.resolve(path)).GET().header("Authorization", authorization));
  }

  static JsonNode put(URI base, String path, Object body, Path tokenFile) throws IOException {
    return send(base, HttpRequest.newBuilder(base.resolve(path)).header("Content-Type", "application/json")
        .header("Authorization", bearer(tokenFile)).PUT(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body))));
  }

  static JsonNode post(URI base, String path, Path tokenFile) throws IOException {
    return send(base, HttpRequest.newBuilder(base.resolve(path)).header("Authorization", bearer(tokenFile))
        .POST(HttpRequest.BodyPublishers.noBody()));
  }

  /** The {@code Authorization} header of the operator token in {@code tokenFile}. */
  private static String bearer(Path tokenFile) throws IOException {
    return "Bearer " + TextFile.firstLine(tokenFile, "the operator token file");
  }

  private static JsonNode send(URI base, HttpRequest.Builder request) throws IOException {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    HttpResponse<String> r;
    try {
      r = http.send(request.timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
    } catch (ConnectException e) {
      throw new Failed("no daemon answers at " + base + " (is it running? is --url right?)");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
    JsonNode body;
    try {
      body = r.body().isEmpty() ? JSON.nullNode() : JSON.readTree(r.body());
    } catch (IOException e) {
      throw new Failed(base + " answered " + r.statusCode() + " with something that is not JSON; is it a Coalition daemon?");
    }
    if (r.statusCode() >= 400) {
      JsonNode error = body.path("error");
      throw new Failed("the daemon refused (" + error.path("code").asText("HTTP " + r.statusCode()) + "): "
          + error.path("message").asText(r.body()));
    }
    return body;
  }
}
