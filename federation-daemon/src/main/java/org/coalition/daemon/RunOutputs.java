package org.coalition.daemon;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.coalition.coordination.JobSpec;
import org.coalition.coordination.RunResult;
import org.coalition.handler.ScriptRunner;

/**
 * Where a run's output waits for its home site. The result in ZooKeeper carries only a
 * reference ({@link RunResult#output()}, at most 2,048 characters): small outputs travel inline
 * as a {@code data:} URI, larger ones are written to this daemon's spool folder and referenced by
 * the daemon's API, {@code https://executor/v1/outputs/HOME~LABEL-RANDOM} (HOME is the site the
 * output belongs to: over mutual TLS the API serves it to that site's identity alone; the 128
 * random bits make the name unguessable where the API is plain HTTP on loopback), or by a {@code file:} URI where the daemon has no HTTP endpoint
 * (the demo). Either way the bytes are one blob: a header line {@code coalition-output 1 OUT ERR},
 * then OUT bytes of standard output and ERR bytes of standard error. Stored outputs are deleted
 * after {@link #RETENTION}. The home reads a reference back with {@link OutputFetch}.
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
  static final String DATA = "data:application/vnd.coalition.output;base64,";
  private static final String HEADER = "coalition-output 1 ";
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

  /** Both streams of a run. */
  public record Captured(byte[] stdout, byte[] stderr) {}

  /** Stores the output of a run for {@code home} ({@code label} names the run) and returns its reference. */
  public String store(String home, String label, byte[] stdout, byte[] stderr) {
    JobSpec.requireId("home site", home);
    String name = home + "~" + label.replaceAll("[^A-Za-z0-9._-]", "_");
    byte[] blob = encode(stdout, stderr);
    String inline = DATA + Base64.getEncoder().encodeToString(blob);
    if (inline.length() <= RunResult.MAX_OUTPUT_REF) {
      return inline;
    }
    try {
      Files.createDirectories(spool, PRIVATE_DIR);
      Files.setPosixFilePermissions(spool, PosixFilePermissions.fromString("rwx------"));
      long used = sweep();
      if (used + blob.length > quotaBytes) {
        throw new SpoolFull("the output spool " + spool + " holds " + used + " bytes; " + blob.length + " more would pass its quota of "
            + quotaBytes);
      }
      Path target = spool.resolve(name + "-" + HexFormat.of().formatHex(random16()));
      Path tmp = spool.resolve("." + target.getFileName() + ".tmp");
      Files.createFile(tmp, PRIVATE_FILE);
      Files.write(tmp, blob);
      Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      return endpoint.isEmpty() ? target.toUri().toString() : endpoint + "v1/outputs/" + target.getFileName();
    } catch (IOException e) {
      throw new SpoolFull("cannot store the output of " + name + " in " + spool + " now (is its disk full?): " + e);
    }
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

  static byte[] encode(byte[] stdout, byte[] stderr) {
    byte[] header = (HEADER + stdout.length + " " + stderr.length + "\n").getBytes(StandardCharsets.US_ASCII);
    return ByteBuffer.allocate(header.length + stdout.length + stderr.length).put(header).put(stdout).put(stderr).array();
  }

  static Captured decode(byte[] blob) {
    int newline = -1;
    for (int i = 0; i < Math.min(blob.length, 64); i++) {
      if (blob[i] == '\n') {
        newline = i;
        break;
      }
    }
    String header = newline < 0 ? "" : new String(blob, 0, newline, StandardCharsets.US_ASCII);
    String[] parts = header.split(" ");
    if (!header.startsWith(HEADER) || parts.length != 4) {
      throw new IllegalArgumentException("output blob does not start with '" + HEADER + "OUT ERR'");
    }
    long out;
    long err;
    try {
      out = Long.parseLong(parts[2]);
      err = Long.parseLong(parts[3]);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("output blob header '" + header + "' has bad lengths", e);
    }
    if (out < 0 || err < 0 || newline + 1 + out + err != blob.length) {
      throw new IllegalArgumentException("output blob header '" + header + "' does not match its " + blob.length + " bytes");
    }
    int from = newline + 1;
    return new Captured(Arrays.copyOfRange(blob, from, from + (int) out), Arrays.copyOfRange(blob, from + (int) out, blob.length));
  }
}
