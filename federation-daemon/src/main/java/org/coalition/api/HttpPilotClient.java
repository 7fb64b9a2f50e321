package org.coalition.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Optional;
import org.coalition.api.model.ErrorBody;
import org.coalition.api.model.Keep;
import org.coalition.api.model.Outcome;
import org.coalition.daemon.pilot.PilotService;

/**
 * The pilot's side of the pilot endpoints: {@code coalition pilot} runs the {@link
 * org.coalition.daemon.PilotAgent} over this client on a compute node. Errors from the daemon
 * keep their code and message.
 */
public final class HttpPilotClient implements PilotService {
  private static final ObjectMapper JSON = new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

  /** The daemon fetches a job's inputs from its home before it answers: a large input takes a while. */
  private static final Duration INPUTS_TIME = Duration.ofMinutes(30);

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
          b.encodeToString(o.stdout()), b.encodeToString(o.stderr()), o.outOfMemory())));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void inputs(String pilotId, String token, Path target) {
    HttpResponse<InputStream> r = send(request(pilotId, "inputs", token, INPUTS_TIME).POST(HttpRequest.BodyPublishers.noBody()).build(),
        "inputs", HttpResponse.BodyHandlers.ofInputStream());
    try (InputStream in = r.body()) {
      if (r.statusCode() >= 400) {
        refused(r.statusCode(), "inputs", new String(in.readNBytes(64 * 1024), StandardCharsets.UTF_8));
      }
      Files.copy(in, target);
    } catch (IOException e) {
      throw new Unavailable("the inputs from the daemon at " + daemon + " were cut: " + e.getMessage(), e);
    }
  }

  @Override
  public void files(String pilotId, String token, Path tar, String sha256) {
    HttpRequest.Builder request = request(pilotId, "files", token, INPUTS_TIME).header("Content-Type", "application/x-tar")
        .header(PilotProtocol.SHA256_HEADER, sha256);
    try {
      request.POST(HttpRequest.BodyPublishers.ofFile(tar));
    } catch (FileNotFoundException e) {
      throw new IllegalStateException("the files of the run are gone: " + tar, e);
    }
    HttpResponse<String> r = send(request.build(), "files", HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() >= 400) {
      refused(r.statusCode(), "files", r.body());
    }
  }

  private HttpRequest.Builder request(String pilotId, String what, String token, Duration timeout) {
    return HttpRequest.newBuilder(daemon.resolve(PilotProtocol.PATH + "/" + pilotId + "/" + what)).timeout(timeout).header("Authorization", "Bearer " + token);
  }

  private <T> HttpResponse<T> send(HttpRequest request, String what, HttpResponse.BodyHandler<T> body) {
    try {
      return http.send(request, body);
    } catch (IOException e) {
      throw new Unavailable("daemon at " + daemon + " unreachable (" + what + "): " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  private HttpResponse<String> post(String pilotId, String what, String token, String body) {
    HttpRequest request = request(pilotId, what, token, Duration.ofSeconds(60))
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body))
        .build();
    HttpResponse<String> r = send(request, what, HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() >= 400) {
      refused(r.statusCode(), what, r.body());
    }
    return r;
  }

  /** Throws what an error answer means: refused (401, 403), unavailable (5xx: ask again), or failed. */
  private static void refused(int status, String what, String body) {
    String message = body;
    try {
      message = JSON.readValue(body, ErrorBody.class).error().message();
    } catch (IOException e) {
      // not our JSON: keep the body as it is
    }
    if (status == 403 || status == 401) {
      throw new PilotRefused(message);
    }
    if (status >= 500) {
      throw new Unavailable("daemon answered " + status + " to " + what + ": " + message, null);
    }
    throw new IllegalStateException("daemon answered " + status + " to " + what + ": " + message);
  }

  private static <T> T read(String body, Class<T> type) {
    try {
      return JSON.readValue(body, type);
    } catch (IOException e) {
      throw new IllegalStateException("daemon sent an unreadable answer: " + e.getMessage(), e);
    }
  }
}
