package org.coalition.daemon;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Base64;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLPeerUnverifiedException;
import org.coalition.coordination.RunResult;

/**
 * The home side of an output's trip: reads back the reference an executing site wrote into a
 * result ({@link RunResult#output()}). The reference is a peer's write, so it is data, never an
 * address to follow: only an inline {@code data:} blob, or the executor's own registered endpoint
 * followed by exactly {@code v1/outputs/NAME}, is fetched, with a size bound and a bound on the
 * whole transfer (a body trickled byte by byte is cut at {@link #TOTAL_TIME}). {@code file:} is
 * read only in the one-machine demo (a home with no HTTP endpoint), and only a regular file, never
 * through a link.
 *
 * <p>Three outcomes besides the output: {@link Refused} (the reference breaks these rules: the
 * result is quarantined), {@link RunOutputs.Unreachable} (the executor did not answer; fetched
 * again later) and an {@link UncheckedIOException} or {@link IllegalArgumentException} (the output
 * is gone or garbled: the run is replayed with the reason in its error stream).
 */
public final class OutputFetch {
  /** The longest a whole fetch may take, connection to last byte. */
  public static final Duration TOTAL_TIME = Duration.ofSeconds(120);
  private static final String OUTPUTS = "v1/outputs/";

  private final HttpClient http;
  private final PeerSites peers;
  private final boolean demo;
  private final Duration totalTime;

  /** A fetcher for a home that serves its API over HTTP(S) ({@code demo} false) or not at all (the demo: {@code file:} allowed). */
  public OutputFetch(HttpClient http, boolean demo) {
    this(http, PeerSites.NONE, demo, TOTAL_TIME);
  }

  /**
   * A fetcher whose {@code http} client presents this site's identity, and which accepts an output
   * over HTTPS only from the certificate of the site that wrote the result ({@code peers}).
   */
  public OutputFetch(HttpClient http, PeerSites peers, boolean demo) {
    this(http, peers, demo, TOTAL_TIME);
  }

  OutputFetch(HttpClient http, PeerSites peers, boolean demo, Duration totalTime) {
    this.http = http;
    this.peers = peers;
    this.demo = demo;
    this.totalTime = totalTime;
  }

  /** The reference is not one this home follows: a protocol violation by the executor, not a lost output. */
  public static final class Refused extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Refused(String message) {
      super(message);
    }
  }

  /** Reads {@code reference}, written by the site whose registered endpoint is {@code executorEndpoint}. */
  public RunOutputs.Captured fetch(String reference, String executorEndpoint) {
    return fetch(reference, executorEndpoint, "");
  }

  /**
   * Reads {@code reference}, written by {@code executor} whose registered endpoint is {@code executorEndpoint}; over
   * HTTPS with {@code peers} set, the answering certificate must name {@code executor}.
   */
  public RunOutputs.Captured fetch(String reference, String executorEndpoint, String executor) {
    if (reference.isEmpty()) {
      return new RunOutputs.Captured(new byte[0], new byte[0]);
    }
    if (reference.startsWith(RunOutputs.DATA)) {
      try {
        return RunOutputs.decode(Base64.getDecoder().decode(reference.substring(RunOutputs.DATA.length())));
      } catch (IllegalArgumentException e) {
        throw new Refused("inline output is not a valid blob: " + e.getMessage());
      }
    }
    if (reference.startsWith("file:") && demo) {
      return RunOutputs.decode(readFile(reference));
    }
    if (peers != PeerSites.NONE && !executorEndpoint.startsWith("https://")) {
      // between daemons with identities, plain HTTP would skip the certificate check: an executor
      // could register an address inside the home's network and have the home call it
      throw new Refused("output reference '" + abbreviate(reference) + "': over mutual TLS the executor's endpoint must be https://, was '"
          + abbreviate(executorEndpoint) + "'");
    }
    if (!(executorEndpoint.startsWith("https://") || executorEndpoint.startsWith("http://"))) {
      throw new Refused("output reference '" + abbreviate(reference) + "' is not inline and the executor registered no HTTP endpoint");
    }
    if (!reference.startsWith(executorEndpoint + OUTPUTS) || !RunOutputs.SERVED.matcher(reference.substring(executorEndpoint.length()
        + OUTPUTS.length())).matches()) {
      throw new Refused("output reference '" + abbreviate(reference) + "' is not " + executorEndpoint + OUTPUTS + "NAME");
    }
    return RunOutputs.decode(download(reference, executor));
  }

  private static byte[] readFile(String reference) {
    Path file;
    try {
      file = Path.of(URI.create(reference));
    } catch (IllegalArgumentException e) {
      throw new Refused("output reference '" + abbreviate(reference) + "' is not a file URI");
    }
    if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
      throw new Refused("output " + file + " is not a regular file (links, devices and pipes are refused)");
    }
    try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
      return bounded(in.readNBytes(RunOutputs.MAX_BLOB + 1), reference);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read output " + file + ": " + e.getMessage(), e);
    }
  }

  private byte[] download(String reference, String executor) {
    HttpRequest request = HttpRequest.newBuilder(URI.create(reference)).timeout(totalTime).GET().build();
    CompletableFuture<HttpResponse<byte[]>> pending = http.sendAsync(request, info -> new BoundedBody(RunOutputs.MAX_BLOB));
    HttpResponse<byte[]> response;
    try {
      response = pending.get(totalTime.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      pending.cancel(true);
      throw new RunOutputs.Unreachable("output " + abbreviate(reference) + " did not arrive within " + totalTime.toSeconds() + " s",
          new IOException("timed out"));
    } catch (InterruptedException e) {
      pending.cancel(true);
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while fetching output " + abbreviate(reference), e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof BoundedBody.TooLarge tooLarge) {
        throw new Refused("output " + abbreviate(reference) + ": " + tooLarge.getMessage());
      }
      IOException io = e.getCause() instanceof IOException x ? x : new IOException(String.valueOf(e.getCause()), e.getCause());
      throw new RunOutputs.Unreachable("cannot fetch output " + abbreviate(reference) + ": " + io, io);
    }
    checkPeer(response, reference, executor);
    if (response.statusCode() >= 500) {
      throw new RunOutputs.Unreachable("output " + abbreviate(reference) + ": HTTP " + response.statusCode() + " from the executing site",
          new IOException("HTTP " + response.statusCode()));
    }
    if (response.statusCode() != 200) {
      throw new UncheckedIOException(new IOException("output " + abbreviate(reference) + ": HTTP " + response.statusCode()
          + " from the executing site (its daemon keeps outputs for " + RunOutputs.RETENTION.toHours() + " h)"));
    }
    return bounded(response.body(), reference);
  }

  /** Over HTTPS between daemons, the certificate that answered must be the executor's: another site's daemon could serve another run's output. */
  private void checkPeer(HttpResponse<byte[]> response, String reference, String executor) {
    if (peers == PeerSites.NONE || !reference.startsWith("https://")) {
      return;
    }
    Optional<String> site = response.sslSession().flatMap(session -> {
      try {
        return session.getPeerCertificates()[0] instanceof X509Certificate leaf ? peers.site(leaf) : Optional.empty();
      } catch (SSLPeerUnverifiedException e) {
        return Optional.empty();
      }
    });
    if (!site.equals(Optional.of(executor))) {
      throw new Refused("output " + abbreviate(reference) + " was served by " + site.map(s -> "site " + s).orElse("no member's certificate")
          + ", not by " + executor + ", which wrote the result");
    }
  }

  private static byte[] bounded(byte[] blob, String reference) {
    if (blob.length > RunOutputs.MAX_BLOB) {
      throw new Refused("output " + abbreviate(reference) + " is larger than " + RunOutputs.MAX_BLOB + " bytes");
    }
    return blob;
  }

  static String abbreviate(String s) {
    return s.length() <= 60 ? s : s.substring(0, 60) + "...";
  }
}
