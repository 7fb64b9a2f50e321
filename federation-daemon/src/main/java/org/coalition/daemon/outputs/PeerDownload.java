package org.coalition.daemon.outputs;

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
import java.util.concurrent.atomic.AtomicReference;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLPeerUnverifiedException;
import org.coalition.daemon.base.PeerSites;

/**
 * One file fetched from another site's daemon: streamed to disk with a size bound and a bound on
 * the whole transfer, its SHA-256 computed on the way, and, over HTTPS between daemons with
 * identities, accepted only from the certificate of the site expected to answer. Outputs come home
 * this way, and inputs go out.
 *
 * <p>A site that has answered (its headers arrived) and then sends fewer than {@link #STALL_BYTES}
 * in any {@link #STALL_WINDOW} is cut at once and refused, as Apache's {@code mod_reqtimeout}
 * refuses a client under its {@code MinRate}: a daemon serves these files from its own disk, and
 * one that trickles them does so to hold the other site's fetch (issue #49, attack 2: a home waited
 * 248 s for an output sent a byte at a time). So is one that answered and has not sent the whole
 * body within the transfer's bound. Only a site that does not answer at all (no route, no
 * connection, no headers within the bound, HTTP 5xx) is unreachable, and tried again later.
 */
public final class PeerDownload {
  /** The window over which a body that has begun must keep arriving. */
  static final Duration STALL_WINDOW = Duration.ofSeconds(30);
  /** The least a body must bring in each window: a kibibyte (34 bytes a second), far under any site's link. */
  static final long STALL_BYTES = 1024;

  private final HttpClient http;
  private final PeerSites peers;
  private final Duration stallWindow;

  public PeerDownload(HttpClient http, PeerSites peers) {
    this(http, peers, STALL_WINDOW);
  }

  /** Downloads over HTTP/1.1 (10 s to connect), showing {@code outbound}'s identity where daemons speak TLS to each other. */
  public static PeerDownload over(Optional<SSLContext> outbound, PeerSites peers) {
    HttpClient.Builder http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(10));
    outbound.ifPresent(http::sslContext);
    return new PeerDownload(http.build(), peers);
  }

  /** A download whose body must bring {@link #STALL_BYTES} in each {@code stallWindow} (tests shorten it). */
  public PeerDownload(HttpClient http, PeerSites peers, Duration stallWindow) {
    this.http = http;
    this.peers = peers;
    this.stallWindow = stallWindow;
  }

  /** Whether daemons show identities: then only {@code https://} is followed and the answering site is checked. */
  public boolean checksPeers() {
    return peers != PeerSites.NONE;
  }

  /**
   * Fetches {@code url}, which {@code site} serves, into the new file {@code target}; the file is
   * deleted when anything fails.
   *
   * @throws RunOutputs.Unreachable the site did not answer (no route, refused, no headers in time, HTTP 5xx): try again later
   * @throws OutputRefused the body passed {@code limit}, stalled, or did not end in time after the site answered; or
   *     another certificate answered
   * @throws UncheckedIOException any other answer (HTTP 404: gone)
   */
  public BoundedFileBody.Received get(String url, String site, long limit, Duration totalTime, Path target) {
    HttpRequest request = HttpRequest.newBuilder(URI.create(url)).timeout(totalTime).GET().build();
    AtomicReference<BoundedFileBody> body = new AtomicReference<>(); // set once the headers arrived
    CompletableFuture<HttpResponse<BoundedFileBody.Received>> pending = http.sendAsync(request, info -> {
      BoundedFileBody b = new BoundedFileBody(target, limit);
      body.set(b);
      return b;
    });
    boolean kept = false;
    try {
      HttpResponse<BoundedFileBody.Received> response = await(pending, body, url, site, totalTime);
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
    } catch (InterruptedException e) {
      pending.cancel(true);
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while fetching " + abbreviate(url), e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof BoundedFileBody.TooLarge tooLarge) {
        throw new OutputRefused(abbreviate(url) + ": " + tooLarge.getMessage());
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

  /**
   * The response once its body has arrived, within {@code totalTime}, its body never stalling
   * for a window once it has begun; the transfer is cancelled otherwise.
   */
  private HttpResponse<BoundedFileBody.Received> await(CompletableFuture<HttpResponse<BoundedFileBody.Received>> pending,
      AtomicReference<BoundedFileBody> body, String url, String site, Duration totalTime) throws InterruptedException, ExecutionException {
    long deadline = System.nanoTime() + totalTime.toNanos();
    long windowStart = 0;
    long windowBytes = -1; // the body's size when the window began; -1 before the headers
    while (true) {
      long now = System.nanoTime();
      if (now >= deadline) {
        pending.cancel(true);
        if (body.get() != null) {
          throw new OutputRefused(abbreviate(url) + ": site " + site + " answered, then did not send it within " + totalTime.toSeconds()
              + " s (" + body.get().size() + " bytes arrived)");
        }
        throw new RunOutputs.Unreachable(abbreviate(url) + " did not arrive within " + totalTime.toSeconds() + " s", new IOException("timed out"));
      }
      try {
        return pending.get(Math.min(deadline - now, TimeUnit.SECONDS.toNanos(1)), TimeUnit.NANOSECONDS);
      } catch (TimeoutException e) {
        BoundedFileBody b = body.get();
        long at = System.nanoTime();
        if (b == null || windowBytes >= 0 && at - windowStart < stallWindow.toNanos()) {
          continue; // no headers yet, or the window still open
        }
        if (windowBytes >= 0 && b.size() - windowBytes < STALL_BYTES) {
          pending.cancel(true);
          throw new OutputRefused(abbreviate(url) + ": site " + site + " answered, then sent " + (b.size() - windowBytes) + " bytes in "
              + stallWindow.toSeconds() + " s (at least " + STALL_BYTES + " are expected of a daemon serving its own disk)");
        }
        windowStart = at; // the first window, from the headers, or the next one
        windowBytes = b.size();
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
      throw new OutputRefused(abbreviate(url) + " was served by " + answered.map(s -> "site " + s).orElse("no member's certificate")
          + ", not by " + site);
    }
  }

  public static String abbreviate(String s) {
    return s.length() <= 60 ? s : s.substring(0, 60) + "...";
  }
}
