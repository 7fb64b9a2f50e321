package org.coalition.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Base64;
import java.util.Optional;
import org.coalition.api.model.ErrorBody;
import org.coalition.api.model.Keep;
import org.coalition.api.model.Outcome;
import org.coalition.daemon.PilotService;

/**
 * The pilot's side of the pilot endpoints: {@code coalition pilot} runs the {@link
 * org.coalition.daemon.PilotAgent} over this client on a compute node. Errors from the daemon
 * keep their code and message.
 */
public final class HttpPilotClient implements PilotService {
  private static final ObjectMapper JSON = new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

  private final URI daemon;
  private final HttpClient http;

  public HttpPilotClient(URI daemon, HttpClient http) {
    this.daemon = daemon;
    this.http = http;
  }

  public HttpPilotClient(URI daemon) {
    this(daemon, HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build());
  }

  @Override
  public Optional<Assignment> work(String pilotId, String token) {
    HttpResponse<String> r = post(pilotId, "work", token, "");
    return r.statusCode() == 204 ? Optional.empty() : Optional.of(read(r.body(), Assignment.class));
  }

  @Override
  public boolean heartbeat(String pilotId, String token) {
    return read(post(pilotId, "heartbeat", token, "").body(), Keep.class).keep();
  }

  @Override
  public void finish(String pilotId, String token, RunOutcome o) {
    Base64.Encoder b = Base64.getEncoder();
    try {
      post(pilotId, "finish", token, JSON.writeValueAsString(new Outcome(o.start(), o.end(), o.exitCode(), o.signal(), o.timedOut(),
          b.encodeToString(o.stdout()), b.encodeToString(o.stderr()))));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  private HttpResponse<String> post(String pilotId, String what, String token, String body) {
    HttpRequest request = HttpRequest.newBuilder(daemon.resolve("v1/pilots/" + pilotId + "/" + what))
        .timeout(Duration.ofSeconds(60))
        .header("Authorization", "Bearer " + token)
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body))
        .build();
    HttpResponse<String> r;
    try {
      r = http.send(request, HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new Unavailable("daemon at " + daemon + " unreachable: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
    if (r.statusCode() >= 400) {
      String message = r.body();
      try {
        message = JSON.readValue(r.body(), ErrorBody.class).error().message();
      } catch (IOException e) {
        // not our JSON: keep the body as it is
      }
      if (r.statusCode() == 403 || r.statusCode() == 401) {
        throw new PilotRefused(message);
      }
      if (r.statusCode() >= 500) {
        throw new Unavailable("daemon answered " + r.statusCode() + " to " + what + ": " + message, null);
      }
      throw new IllegalStateException("daemon answered " + r.statusCode() + " to " + what + ": " + message);
    }
    return r;
  }

  private static <T> T read(String body, Class<T> type) {
    try {
      return JSON.readValue(body, type);
    } catch (IOException e) {
      throw new IllegalStateException("daemon sent an unreadable answer: " + e.getMessage(), e);
    }
  }
}
