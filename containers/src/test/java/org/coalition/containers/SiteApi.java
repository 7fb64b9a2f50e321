package org.coalition.containers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.time.Duration;
import java.util.function.IntSupplier;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/** A daemon's API as the host reaches it: HTTPS on its published port, trusting the federation's CA alone, with the operator token. */
final class SiteApi {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final HttpClient http;
  private final IntSupplier port;
  /** The operator token: the daemons answer reads from another host (the host is one to them) only with it. */
  private final String token;
  private volatile String lastError = "";
  private volatile String lastBase = "";

  /** {@code port}: where the daemon's API is published now (it may move when the daemon changes networks). */
  SiteApi(Path credentials, IntSupplier port) {
    try {
      KeyStore trust = KeyStore.getInstance("PKCS12");
      char[] password = Files.readString(credentials.resolve("federation-ca.p12.password")).trim().toCharArray();
      try (InputStream in = Files.newInputStream(credentials.resolve("federation-ca.p12"))) {
        trust.load(in, password);
      }
      TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      tmf.init(trust);
      SSLContext tls = SSLContext.getInstance("TLS");
      tls.init(null, tmf.getTrustManagers(), null);
      http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).sslContext(tls).connectTimeout(Duration.ofSeconds(5)).build();
      token = Files.readString(credentials.resolve("operator.token")).trim();
    } catch (IOException | GeneralSecurityException e) {
      throw new IllegalStateException("cannot read the federation's trust store in " + credentials + ": " + e.getMessage(), e);
    }
    this.port = port;
  }

  /** The answer to GET {@code path}, an empty object on 404, or null while the daemon does not answer. */
  JsonNode get(String path) {
    URI base;
    try {
      base = URI.create("https://localhost:" + port.getAsInt() + "/");
    } catch (RuntimeException e) {
      lastError = path + ": no published port (" + e.getMessage() + ")";
      return null;
    }
    lastBase = base.toString();
    try {
      HttpResponse<String> r = http.send(HttpRequest.newBuilder(base.resolve(path)).header("Authorization", "Bearer " + token)
          .timeout(Duration.ofSeconds(10)).build(),
          HttpResponse.BodyHandlers.ofString());
      if (r.statusCode() == 404) {
        return JSON.createObjectNode();
      }
      if (r.statusCode() != 200) {
        lastError = path + ": HTTP " + r.statusCode();
        return null;
      }
      return JSON.readTree(r.body());
    } catch (IOException e) {
      lastError = path + ": " + e;
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }

  /** Why the last request got no answer, for a test's failure message. */
  String lastError() {
    return lastBase + lastError;
  }

  /** How many sites this daemon sees live, or -1 while it does not answer. */
  int liveSites() {
    JsonNode sites = get("v1/sites");
    if (sites == null) {
      return -1;
    }
    int live = 0;
    for (JsonNode s : sites.path("sites")) {
      live += s.path("live").asBoolean() ? 1 : 0;
    }
    return live;
  }

  /** How many of this daemon's pilots hold a claimed job now (its status's running pilots), or -1 while it does not answer. */
  int runningPilots() {
    JsonNode status = get("v1/status");
    return status == null ? -1 : status.path("pilots").path("running").asInt(-1);
  }

  /** The home's view of one of its jobs: state (published, claimed, running, replayed ...) and executor; empty when never published. */
  JsonNode job(String id) {
    JsonNode j = get("v1/jobs/" + id);
    return j == null ? JSON.createObjectNode() : j;
  }
}
