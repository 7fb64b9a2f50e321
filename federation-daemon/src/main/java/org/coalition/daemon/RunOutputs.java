package org.coalition.daemon;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.Base64;
import org.coalition.coordination.RunResult;

/**
 * Where a run's output waits for its home site. The result in ZooKeeper carries only a
 * reference ({@link RunResult#output()}, at most 2,048 characters): small outputs travel inline
 * as a {@code data:} URI, larger ones are written to this daemon's spool folder and referenced by
 * a {@code file:} URI (sites that share a file system, and the demo). Either way the bytes are one
 * blob: a header line {@code coalition-output 1 OUT ERR}, then OUT bytes of standard output and
 * ERR bytes of standard error.
 */
public final class RunOutputs {
  private static final String DATA = "data:application/vnd.coalition.output;base64,";
  private static final String HEADER = "coalition-output 1 ";
  /** Largest blob fetched back (two capped streams and a header). */
  static final int MAX_BLOB = 2 * PilotAgent.MAX_STREAM + 64;

  private final Path spool;

  public RunOutputs(Path spool) {
    this.spool = spool;
  }

  /** Both streams of a run. */
  public record Captured(byte[] stdout, byte[] stderr) {}

  /** Stores a run's output and returns its reference. */
  public String store(String name, byte[] stdout, byte[] stderr) {
    byte[] blob = encode(stdout, stderr);
    String inline = DATA + Base64.getEncoder().encodeToString(blob);
    if (inline.length() <= RunResult.MAX_OUTPUT_REF) {
      return inline;
    }
    try {
      Files.createDirectories(spool);
      Path target = spool.resolve(name.replaceAll("[^A-Za-z0-9._-]", "_"));
      Path tmp = spool.resolve("." + target.getFileName() + ".tmp");
      Files.write(tmp, blob);
      Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      return target.toUri().toString();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot store the output of " + name + " in " + spool + ": " + e.getMessage(), e);
    }
  }

  /** Reads a reference back; an empty reference is a run with no output kept. */
  public static Captured fetch(String reference) {
    if (reference.isEmpty()) {
      return new Captured(new byte[0], new byte[0]);
    }
    byte[] blob;
    if (reference.startsWith(DATA)) {
      try {
        blob = Base64.getDecoder().decode(reference.substring(DATA.length()));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("output reference is not valid base64: " + e.getMessage(), e);
      }
    } else if (reference.startsWith("file:")) {
      Path file = Path.of(URI.create(reference));
      try {
        if (Files.size(file) > MAX_BLOB) {
          throw new IllegalArgumentException("output " + file + " is larger than " + MAX_BLOB + " bytes");
        }
        blob = Files.readAllBytes(file);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read output " + file + ": " + e.getMessage(), e);
      }
    } else {
      throw new IllegalArgumentException("output reference '" + abbreviate(reference)
          + "' has a scheme this daemon cannot fetch (data: and file: are supported)");
    }
    return decode(blob);
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

  private static String abbreviate(String s) {
    return s.length() <= 60 ? s : s.substring(0, 60) + "...";
  }
}
