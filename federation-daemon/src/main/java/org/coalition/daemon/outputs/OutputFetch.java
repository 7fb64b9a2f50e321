package org.coalition.daemon.outputs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Base64;
import org.coalition.coordination.RunResult;
import org.coalition.daemon.base.PeerSites;
import org.coalition.staging.AccountTar;
import org.coalition.staging.StagingRefused;
import org.coalition.staging.TarBundle;

/**
 * The home side of an output's trip: reads back the reference an executing site wrote into a
 * result ({@link RunResult#output()}). The reference is a peer's write, so it is data, never an
 * address to follow: only an inline {@code data:} blob, or the executor's own registered endpoint
 * followed by exactly {@code v1/outputs/NAME}, is fetched ({@link PeerDownload}), with a size
 * bound and a bound on the whole transfer (a body trickled byte by byte is cut), and checked
 * against the SHA-256 its result names. {@code file:} is
 * read only in the one-machine demo (a home with no HTTP endpoint), and only a regular file, never
 * through a link.
 *
 * <p>Three outcomes besides the output: {@link Refused} (the reference breaks these rules: the
 * result is quarantined), {@link RunOutputs.Unreachable} (the executor did not answer; fetched
 * again later) and an {@link UncheckedIOException} or {@link IllegalArgumentException} (the output
 * is gone or garbled: the run is replayed with the reason in its error stream).
 */
public final class OutputFetch {
  /** The longest a whole fetch of a run without files may take, connection to last byte. */
  public static final Duration TOTAL_TIME = Duration.ofSeconds(120);
  /** The slowest transfer of files waited for: a fetch may take {@link #TOTAL_TIME} and a second per this many bytes it may bring. */
  public static final long BYTES_PER_SECOND = 8L << 20;
  private static final String OUTPUTS = "v1/outputs/";

  private final PeerDownload download;
  private final boolean demo;
  private final Duration totalTime;
  private final Path incoming;
  private final long maxFilesBytes;

  /**
   * A fetcher for a home that serves its API over HTTP(S) ({@code demo} false) or not at all (the
   * demo: {@code file:} allowed), and takes no files back.
   */
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

  public OutputFetch(HttpClient http, PeerSites peers, boolean demo, Duration totalTime) {
    this(new PeerDownload(http, peers), demo, totalTime, Path.of(System.getProperty("java.io.tmpdir")), 0);
  }

  /** A fetcher that takes in at most {@code maxFilesBytes} of a run's files, into {@code incoming} (a folder of this daemon's own). */
  public OutputFetch(PeerDownload download, boolean demo, Duration totalTime, Path incoming, long maxFilesBytes) {
    this.download = download;
    this.demo = demo;
    this.totalTime = totalTime;
    this.incoming = incoming;
    this.maxFilesBytes = maxFilesBytes;
  }

  /** Reads {@code reference}, written by the site whose registered endpoint is {@code executorEndpoint}. */
  public CapturedOutput fetch(String reference, String executorEndpoint) {
    return fetch(reference, executorEndpoint, "", "");
  }

  /** As {@link #fetch(String, String, String, String)}, with no checksum to check. */
  public CapturedOutput fetch(String reference, String executorEndpoint, String executor) {
    return fetch(reference, executorEndpoint, executor, "");
  }

  /**
   * Reads {@code reference}, written by {@code executor} whose registered endpoint is {@code executorEndpoint}; over
   * HTTPS with {@code peers} set, the answering certificate must name {@code executor}. A fetched
   * blob must have the SHA-256 {@code sha256} when one is given. The files of the run, if any, are
   * a checked tar in this daemon's incoming folder: the caller deletes it once used.
   */
  public CapturedOutput fetch(String reference, String executorEndpoint, String executor, String sha256) {
    return fetch(reference, executorEndpoint, executor, sha256, 0);
  }

  /**
   * Reads the output {@code result} names, written by {@code executor} whose registered endpoint is
   * {@code executorEndpoint}, bounded by the size the result declares as well as by this home's own limit.
   */
  public CapturedOutput fetch(RunResult result, String executorEndpoint, String executor) {
    return fetch(result.output(), executorEndpoint, executor, result.outputSha256(), result.outputBytes());
  }

  /**
   * The fetch: at most this home's own limit, and at most {@code declared} bytes when the result
   * declares a size (over it: refused); the whole transfer may take {@link #TOTAL_TIME} and a second
   * per {@link #BYTES_PER_SECOND} of what may arrive, so a run without files is not waited for as if
   * it brought the 1 GiB of {@code staging.max-job} (issue #49, attack 2: 248 s).
   */
  private CapturedOutput fetch(String reference, String executorEndpoint, String executor, String sha256, long declared) {
    if (reference.isEmpty()) {
      return new CapturedOutput(new byte[0], new byte[0]);
    }
    if (reference.startsWith(RunOutputs.DATA)) {
      try {
        return OutputBlob.decode(Base64.getDecoder().decode(reference.substring(RunOutputs.DATA.length())));
      } catch (IllegalArgumentException e) {
        throw new OutputRefused("inline output is not a valid blob: " + e.getMessage());
      }
    }
    if (reference.startsWith("file:") && demo) {
      return read(localFile(reference), reference);
    }
    if (download.checksPeers() && !executorEndpoint.startsWith("https://")) {
      // between daemons with identities, plain HTTP would skip the certificate check: an executor
      // could register an address inside the home's network and have the home call it
      throw new OutputRefused("output reference '" + abbreviate(reference) + "': over mutual TLS the executor's endpoint must be https://, was '"
          + abbreviate(executorEndpoint) + "'");
    }
    if (!(executorEndpoint.startsWith("https://") || executorEndpoint.startsWith("http://"))) {
      throw new OutputRefused("output reference '" + abbreviate(reference) + "' is not inline and the executor registered no HTTP endpoint");
    }
    if (!reference.startsWith(executorEndpoint + OUTPUTS) || !RunOutputs.SERVED.matcher(reference.substring(executorEndpoint.length()
        + OUTPUTS.length())).matches()) {
      throw new OutputRefused("output reference '" + abbreviate(reference) + "' is not " + executorEndpoint + OUTPUTS + "NAME");
    }
    Path blob = temporary("output-");
    try {
      long own = RunOutputs.MAX_BLOB + TarBundle.rawLimit(maxFilesBytes);
      long limit = declared > 0 ? Math.min(own, declared) : own;
      Duration time = totalTime.plusSeconds(Math.max(0, limit - RunOutputs.MAX_BLOB) / BYTES_PER_SECOND);
      BoundedFileBody.Received got = download.get(reference, executor, limit, time, blob);
      if (!sha256.isEmpty() && !sha256.equals(got.sha256())) {
        throw new IllegalArgumentException("output " + abbreviate(reference) + " arrived with SHA-256 " + got.sha256()
            + ", not the " + sha256 + " its result names (changed or damaged on the executing site)");
      }
      return read(blob, reference);
    } finally {
      deleteQuietly(blob);
    }
  }

  private CapturedOutput read(Path blob, String reference) {
    Path files = temporary("files-");
    try {
      return OutputBlob.read(blob, files, maxFilesBytes);
    } catch (StagingRefused e) {
      throw new OutputRefused("output " + abbreviate(reference) + ": its files: " + e.getMessage());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read output " + abbreviate(reference) + ": " + e.getMessage(), e);
    }
  }

  private Path temporary(String prefix) {
    try {
      Files.createDirectories(incoming, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
      Path file = Files.createTempFile(incoming, prefix, ".tmp");
      Files.delete(file); // made anew by whoever writes it, or never
      return file;
    } catch (IOException e) {
      throw new RunOutputs.Unreachable("cannot make room for an output in " + incoming + " now (is the disk full?): " + e.getMessage(), e);
    }
  }

  private static Path localFile(String reference) {
    Path file;
    try {
      file = Path.of(URI.create(reference));
    } catch (IllegalArgumentException e) {
      throw new OutputRefused("output reference '" + abbreviate(reference) + "' is not a file URI");
    }
    if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
      throw new OutputRefused("output " + file + " is not a regular file (links, devices and pipes are refused)");
    }
    return file;
  }

  public static void deleteQuietly(Path file) {
    AccountTar.deleteQuietly(file);
  }

  static String abbreviate(String s) {
    return PeerDownload.abbreviate(s);
  }
}
