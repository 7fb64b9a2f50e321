package org.coalition.daemon;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLPeerUnverifiedException;

/**
 * One file fetched from another site's daemon: streamed to disk with a size bound and a bound on
 * the whole transfer (a body trickled byte by byte is cut), its SHA-256 computed on the way, and,
 * over HTTPS between daemons with identities, accepted only from the certificate of the site
 * expected to answer. Outputs come home this way, and inputs go out.
 */
final class PeerDownload {
  private final HttpClient http;
  private final PeerSites peers;

  PeerDownload(HttpClient http, PeerSites peers) {
    this.http = http;
    this.peers = peers;
  }

  /** Whether daemons show identities: then only {@code https://} is followed and the answering site is checked. */
  boolean checksPeers() {
    return peers != PeerSites.NONE;
  }

  /**
   * Fetches {@code url}, which {@code site} serves, into the new file {@code target}; the file is
   * deleted when anything fails.
   *
   * @throws RunOutputs.Unreachable the site did not answer (no route, refused, timed out, HTTP 5xx): try again later
   * @throws OutputFetch.Refused the body passed {@code limit}, or another certificate answered
   * @throws UncheckedIOException any other answer (HTTP 404: gone)
   */
  BoundedFileBody.Received get(String url, String site, long limit, Duration totalTime, Path target) {
    HttpRequest request = HttpRequest.newBuilder(URI.create(url)).timeout(totalTime).GET().build();
    CompletableFuture<HttpResponse<BoundedFileBody.Received>> pending = http.sendAsync(request, info -> new BoundedFileBody(target, limit));
    HttpResponse<BoundedFileBody.Received> response;
    boolean kept = false;
    try {
      response = pending.get(totalTime.toMillis(), TimeUnit.MILLISECONDS);
      checkPeer(response, url, site);
      if (response.statusCode() >= 500) {
        throw new RunOutputs.Unreachable(abbreviate(url) + ": HTTP " + response.statusCode() + " from site " + site,
            new IOException("HTTP " + response.statusCode()));
      }
      if (response.statusCode() != 200) {
        throw new UncheckedIOException(new IOException(abbreviate(url) + ": HTTP " + response.statusCode() + " from site " + site));
      }
      kept = true;
      return response.body();
    } catch (TimeoutException e) {
      pending.cancel(true);
      throw new RunOutputs.Unreachable(abbreviate(url) + " did not arrive within " + totalTime.toSeconds() + " s", new IOException("timed out"));
    } catch (InterruptedException e) {
      pending.cancel(true);
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while fetching " + abbreviate(url), e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof BoundedFileBody.TooLarge tooLarge) {
        throw new OutputFetch.Refused(abbreviate(url) + ": " + tooLarge.getMessage());
      }
      if (e.getCause() instanceof UncheckedIOException disk) {
        throw disk;
      }
      IOException io = e.getCause() instanceof IOException x ? x : new IOException(String.valueOf(e.getCause()), e.getCause());
      throw new RunOutputs.Unreachable("cannot fetch " + abbreviate(url) + ": " + io, io);
    } finally {
      if (!kept) {
        try {
          Files.deleteIfExists(target);
        } catch (IOException e) {
          // a leftover in the daemon's own spool: swept with it
        }
      }
    }
  }

  /** Over HTTPS between daemons, the certificate that answered must be {@code site}'s: another site's daemon could serve another job's file. */
  private void checkPeer(HttpResponse<?> response, String url, String site) {
    if (peers == PeerSites.NONE || !url.startsWith("https://")) {
      return;
    }
    Optional<String> answered = response.sslSession().flatMap(session -> {
      try {
        return session.getPeerCertificates()[0] instanceof X509Certificate leaf ? peers.site(leaf) : Optional.empty();
      } catch (SSLPeerUnverifiedException e) {
        return Optional.empty();
      }
    });
    if (!answered.equals(Optional.of(site))) {
      throw new OutputFetch.Refused(abbreviate(url) + " was served by " + answered.map(s -> "site " + s).orElse("no member's certificate")
          + ", not by " + site);
    }
  }

  static String abbreviate(String s) {
    return s.length() <= 60 ? s : s.substring(0, 60) + "...";
  }
}
