package org.coalition.daemon.outputs;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.coalition.coordination.JobSpec;
import org.coalition.coordination.RunResult;
import org.coalition.handler.ScriptRunner;
import org.coalition.staging.Checksums;

/**
 * Where a run's output waits for its home site. The result in ZooKeeper carries only a
 * reference ({@link RunResult#output()}, at most 2,048 characters): small outputs travel inline
 * as a {@code data:} URI, larger ones are written to this daemon's spool folder and referenced by
 * the daemon's API, {@code https://executor/v1/outputs/HOME~LABEL-RANDOM} (HOME is the site the
 * output belongs to: over mutual TLS the API serves it to that site's identity alone; the 128
 * random bits make the name unguessable where the API is plain HTTP on loopback), or by a {@code file:} URI where the daemon has no HTTP endpoint
 * (the demo). Either way the bytes are one blob: a header line {@code coalition-output 1 OUT ERR},
 * then OUT bytes of standard output and ERR bytes of standard error; a run that wrote files has
 * the header {@code coalition-output 2 OUT ERR FILES} and a tar of FILES bytes after the streams
 * (issue #24: a home from before reads version 1 only, and gets version 2 only for runs that
 * declared inputs or wrote files). A stored blob's SHA-256 goes into the result, and the home
 * checks it. The files a pilot uploads ({@link #receiveFiles}) wait here until its report. Stored
 * outputs are deleted after {@link #RETENTION}. The home reads a reference back with {@link OutputFetch}.
 */
public final class RunOutputs {
  /** How long a stored output waits for its home site to fetch it. */
  public static final Duration RETENTION = Duration.ofDays(1);
  /** A stored output's name: its home (a site id, which never holds '~'), a label, 128 random bits. */
  static final Pattern SERVED = Pattern.compile("([A-Za-z0-9._-]{1,128})~[A-Za-z0-9._-]{1,200}-[0-9a-f]{32}");
  private static final SecureRandom RANDOM = new SecureRandom();
  /** Outputs are the users' data: the spool is 0700 and each output 0600, whatever the umask. */
  private static final FileAttribute<Set<PosixFilePermission>> PRIVATE_DIR =
      PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------"));
  private static final FileAttribute<Set<PosixFilePermission>> PRIVATE_FILE =
      PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"));
  public static final String DATA = "data:application/vnd.coalition.output;base64,";
  /** Largest blob fetched back (two capped streams and a header). */
  static final int MAX_BLOB = 2 * ScriptRunner.MAX_STREAM + 64;

  /** Most bytes of outputs kept at once, unless the site says otherwise. */
  public static final long DEFAULT_QUOTA = 10L << 30;

  private final Path spool;
  private final String endpoint;
  private final long quotaBytes;

  /** Outputs referenced by {@code file:} URIs (the demo, tests). */
  public RunOutputs(Path spool) {
    this(spool, "");
  }

  /** Outputs served by the daemon's API at {@code endpoint} (ending in '/') when it is an http(s) address. */
  public RunOutputs(Path spool, String endpoint) {
    this(spool, endpoint, DEFAULT_QUOTA);
  }

  /** As above, with at most {@code quotaBytes} of outputs kept at once. */
  public RunOutputs(Path spool, String endpoint, long quotaBytes) {
    this.spool = spool;
    this.endpoint = endpoint.startsWith("http://") || endpoint.startsWith("https://") ? endpoint : "";
    this.quotaBytes = quotaBytes;
  }

  /**
   * The spool cannot take the output now: it holds its quota already, or the disk refused the
   * write (full, or gone read-only). The output is not stored and the pilot's report fails as
   * unavailable (503): the pilot keeps the run's output and asks again, and outputs older than
   * the retention make room. Never turned into a lost run.
   */
  public static final class SpoolFull extends UncheckedIOException {
    private static final long serialVersionUID = 1L;

    SpoolFull(String message) {
      super(new IOException(message));
    }
  }

  /** Whether outputs are served over HTTP(S); if not, this is the one-machine demo and references are {@code file:} URIs. */
  public boolean servesHttp() {
    return !endpoint.isEmpty();
  }

  /** A stored output: its reference, and its SHA-256 when the home fetches it ("" when inline). */
  public record Stored(String reference, String sha256) {}

  /** Stores the output of a run for {@code home} ({@code label} names the run) and returns its reference. */
  public String store(String home, String label, byte[] stdout, byte[] stderr) {
    return store(home, label, stdout, stderr, Optional.empty()).reference();
  }

  /** Stores the output of a run for {@code home}, with the tar of the {@code files} it wrote if any. */
  public Stored store(String home, String label, byte[] stdout, byte[] stderr, Optional<Path> files) {
    JobSpec.requireId("home site", home);
    String name = home + "~" + label.replaceAll("[^A-Za-z0-9._-]", "_");
    if (files.isEmpty()) {
      String inline = DATA + Base64.getEncoder().encodeToString(OutputBlob.encode(stdout, stderr));
      if (inline.length() <= RunResult.MAX_OUTPUT_REF) {
        return new Stored(inline, "");
      }
    }
    try {
      long filesBytes = files.isPresent() ? Files.size(files.get()) : 0;
      byte[] header = OutputBlob.header(stdout.length, stderr.length, files.map(f -> filesBytes));
      long size = header.length + stdout.length + stderr.length + filesBytes;
      prepareSpool(size - filesBytes); // the files are in the spool already
      Path target = spool.resolve(name + "-" + HexFormat.of().formatHex(random16()));
      Path tmp = spool.resolve("." + target.getFileName() + ".tmp");
      MessageDigest sha = Checksums.sha256();
      try (OutputStream out = new DigestOutputStream(Files.newOutputStream(Files.createFile(tmp, PRIVATE_FILE)), sha)) {
        out.write(header);
        out.write(stdout);
        out.write(stderr);
        if (files.isPresent()) {
          Files.copy(files.get(), out);
        }
      }
      Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      return new Stored(endpoint.isEmpty() ? target.toUri().toString() : endpoint + "v1/outputs/" + target.getFileName(),
          Checksums.hex(sha));
    } catch (IOException e) {
      throw new SpoolFull("cannot store the output of " + name + " in " + spool + " now (is its disk full?): " + e);
    }
  }

  /** The spool exists, private, and has room for {@code bytes} more under its quota. */
  private void prepareSpool(long bytes) throws IOException {
    Files.createDirectories(spool, PRIVATE_DIR);
    Files.setPosixFilePermissions(spool, PosixFilePermissions.fromString("rwx------"));
    long used = sweep();
    if (used + bytes > quotaBytes) {
      throw new SpoolFull("the output spool " + spool + " holds " + used + " bytes; " + bytes + " more would pass its quota of " + quotaBytes);
    }
  }

  /** The SHA-256 of a stored output this daemon serves ("" for an inline one, or one gone): a report stored before a restart is sent again with it. */
  public String checksum(String reference) {
    int at = reference.lastIndexOf('/');
    Optional<Path> file = at < 0 || reference.startsWith(DATA) ? Optional.empty() : served(reference.substring(at + 1));
    if (file.isEmpty()) {
      return "";
    }
    try {
      return Checksums.sha256(file.get());
    } catch (IOException e) {
      return "";
    }
  }

  /**
   * Takes the tar of the files pilot {@code pilotId}'s run wrote: {@code length} bytes of
   * {@code in}, at most {@code maxBytes}, counted in the spool's quota, and checked against
   * {@code sha256}; replaces an earlier upload of the same pilot.
   *
   * @throws SpoolFull when the spool cannot take it now
   * @throws IllegalArgumentException when the body is not what was announced
   */
  public void receiveFiles(String pilotId, InputStream in, long length, String sha256, long maxBytes) {
    if (length < 0 || length > maxBytes) {
      throw new IllegalArgumentException("the files are " + length + " bytes; this site takes at most " + maxBytes + " per job (staging.max-job)");
    }
    Path target = filesOf(pilotId);
    Path tmp = spool.resolve("." + target.getFileName() + ".tmp");
    try {
      prepareSpool(length);
      MessageDigest sha = Checksums.sha256();
      long got;
      try (OutputStream out = new DigestOutputStream(Files.newOutputStream(tmp, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
          StandardOpenOption.WRITE), sha)) {
        got = in.transferTo(out);
      }
      String sum = Checksums.hex(sha);
      if (got != length || !sum.equals(sha256)) {
        Files.deleteIfExists(tmp);
        throw new IllegalArgumentException("the files arrived as " + got + " bytes with SHA-256 " + sum + ", not the " + length
            + " bytes and SHA-256 announced");
      }
      Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      try {
        Files.deleteIfExists(tmp);
      } catch (IOException ignored) {
        // swept with the spool
      }
      throw new SpoolFull("cannot take the files of pilot " + pilotId + " in " + spool + " now (is its disk full?): " + e);
    }
  }

  /** The files pilot {@code pilotId} uploaded, if any. */
  public Optional<Path> files(String pilotId) {
    Path f = filesOf(pilotId);
    return Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS) ? Optional.of(f) : Optional.empty();
  }

  /** Forgets the files pilot {@code pilotId} uploaded (its output holds them now). */
  public void dropFiles(String pilotId) {
    try {
      Files.deleteIfExists(filesOf(pilotId));
    } catch (IOException e) {
      // swept after the retention
    }
  }

  private Path filesOf(String pilotId) {
    return spool.resolve(".files-" + pilotId.replaceAll("[^A-Za-z0-9._-]", "_") + ".tar");
  }

  /**
   * A folder of this daemon's own beside the spool, {@code SPOOL-NAME} ("incoming": outputs fetched
   * home and inputs fetched for pilots; "inputs": this site's jobs' inputs), made on first use.
   */
  public Path sibling(String name) {
    return spool.resolveSibling(spool.getFileName() + "-" + name);
  }

  /** A name for a file on its way in, in this daemon's own {@code incoming} folder (made, mode 0700); the file is not made. */
  public Path incomingFile(String prefix) throws IOException {
    Path dir = Files.createDirectories(sibling("incoming"), PRIVATE_DIR);
    return dir.resolve(prefix + UUID.randomUUID() + ".tmp");
  }

  private static byte[] random16() {
    byte[] b = new byte[16];
    RANDOM.nextBytes(b);
    return b;
  }

  /** The home site of the output {@code name} (as served at {@code v1/outputs/NAME}), or empty if it names none. */
  public static Optional<String> homeOf(String name) {
    Matcher m = SERVED.matcher(name);
    return m.matches() ? Optional.of(m.group(1)) : Optional.empty();
  }

  /** The stored output {@code name} names, if it is one this daemon serves. */
  public Optional<Path> served(String name) {
    if (!SERVED.matcher(name).matches()) {
      return Optional.empty();
    }
    Path file = spool.resolve(name);
    return Files.isRegularFile(file) ? Optional.of(file) : Optional.empty();
  }

  /** Deletes outputs older than {@link #RETENTION}; returns the bytes of those kept. */
  private long sweep() throws IOException {
    long cutoff = System.currentTimeMillis() - RETENTION.toMillis();
    long kept = 0;
    try (var files = Files.list(spool)) {
      for (Path f : (Iterable<Path>) files::iterator) {
        if (!Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS)) {
          continue;
        }
        if (Files.getLastModifiedTime(f, LinkOption.NOFOLLOW_LINKS).toMillis() < cutoff) {
          Files.deleteIfExists(f);
        } else {
          kept += Files.size(f);
        }
      }
    }
    return kept;
  }

  /**
   * The executing site's daemon did not answer (no route, refused, timed out, HTTP 5xx): the
   * output may still be fetched later, for as long as that daemon keeps it ({@link #RETENTION}).
   */
  public static final class Unreachable extends UncheckedIOException {
    private static final long serialVersionUID = 1L;

    Unreachable(String message, IOException cause) {
      super(message, cause);
    }
  }

}
