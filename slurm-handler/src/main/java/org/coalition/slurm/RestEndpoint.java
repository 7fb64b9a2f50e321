package org.coalition.slurm;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.coalition.handler.RequestCost;

/**
 * Where slurmrestd is and how to talk to it, shared by every version's generated client: HTTP/1.1
 * (slurmrestd answers an h2c upgrade with 405), JSON only (22.05 answers YAML to the generated
 * clients' default Accept), a JWT per request for the user acting, time limits, and a count of
 * requests and response bytes.
 */
final class RestEndpoint {
  private final String url;
  private final SlurmCredentials credentials;
  private final Duration timeout;
  private static final ObjectMapper JSON = new ObjectMapper();
  private final HttpClient raw;
  private final AtomicInteger requests = new AtomicInteger();
  private final AtomicLong bytes = new AtomicLong();

  RestEndpoint(String url, SlurmCredentials credentials, Duration timeout) {
    this.url = url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    this.credentials = credentials;
    this.timeout = timeout;
    this.raw = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(timeout).build();
  }

  String url() {
    return url;
  }

  /**
   * Fits a generated client's JSON mapper to what slurmrestd really sends and takes: requests
   * leave out empty lists (the generated models start every list empty, and slurmrestd refuses
   * {@code "nodes": []} or {@code "jobs": []} beside {@code "job"}); a number too large for a field
   * the document calls int32 (Slurm's unsigned 32-bit NO_VAL and INFINITE markers) reads as null.
   */
  static ObjectMapper fit(ObjectMapper mapper) {
    mapper.setSerializationInclusion(JsonInclude.Include.NON_EMPTY);
    SimpleModule lenient = new SimpleModule("slurm-unsigned");
    lenient.addDeserializer(Integer.class, new JsonDeserializer<>() {
      @Override
      public Integer deserialize(JsonParser p, DeserializationContext context) throws IOException {
        if (p.currentToken().isNumeric()) {
          long value = p.getLongValue();
          return value < Integer.MIN_VALUE || value > Integer.MAX_VALUE ? null : (int) value;
        }
        return context.readValue(p, int.class);
      }
    });
    mapper.registerModule(lenient);
    return mapper;
  }

  /**
   * GET {@code path} as {@code user} and read the answer as a JSON tree: for calls whose
   * published schema does not match what the server sends.
   */
  JsonNode get(String user, String path, String what) {
    return send(user, HttpRequest.newBuilder(URI.create(url + path)).GET(), what);
  }

  /** POST {@code body} to {@code path} as {@code user}; for calls the generated client cannot make right. */
  JsonNode post(String user, String path, JsonNode body, String what) {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url + path)).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body.toString()));
    return send(user, request, what);
  }

  private JsonNode send(String user, HttpRequest.Builder request, String what) {
    SlurmCredentials.Token t = credentials.forUser(user);
    request.timeout(timeout).setHeader("Accept", "application/json").header("X-SLURM-USER-NAME", t.user()).header("X-SLURM-USER-TOKEN", t.token());
    HttpResponse<String> response;
    try {
      response = raw.send(request.build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException | InterruptedException e) {
      throw RestErrors.noAnswer(what, url, e);
    }
    requests.incrementAndGet();
    bytes.addAndGet(response.headers().firstValueAsLong("Content-Length").orElse(response.body().length()));
    if (response.statusCode() / 100 != 2) {
      throw RestErrors.answer(what, url, response.statusCode(), response.body(), null);
    }
    JsonNode answer;
    try {
      answer = JSON.readTree(response.body());
    } catch (JsonProcessingException e) {
      throw RestErrors.noAnswer(what, url, e);
    }
    JsonNode errors = answer.path("errors");
    if (errors.size() > 0) {
      JsonNode e = errors.get(0);
      throw RestErrors.reported(what, url, e.path("error_number").asInt(e.path("error_code").asInt(0)),
          e.path("description").asText(e.path("error").asText()));
    }
    return answer;
  }

  /**
   * Sets up one generated {@code ApiClient} (they share no type across versions, hence the setters)
   * to act as {@code user}.
   */
  void configure(String user, Consumer<HttpClient.Builder> httpClient, Consumer<String> baseUri, Consumer<Duration> readTimeout,
      Consumer<Consumer<HttpRequest.Builder>> requestInterceptor, Consumer<Consumer<HttpResponse<InputStream>>> responseInterceptor) {
    httpClient.accept(HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(timeout));
    baseUri.accept(url);
    readTimeout.accept(timeout);
    requestInterceptor.accept(b -> {
      SlurmCredentials.Token t = credentials.forUser(user);
      b.setHeader("Accept", "application/json").header("X-SLURM-USER-NAME", t.user()).header("X-SLURM-USER-TOKEN", t.token());
    });
    responseInterceptor.accept(response -> {
      requests.incrementAndGet();
      bytes.addAndGet(response.headers().firstValueAsLong("Content-Length").orElse(0));
    });
  }

  /** Requests made and response bytes received so far. */
  RequestCost cost() {
    return new RequestCost(requests.get(), bytes.get());
  }
}
