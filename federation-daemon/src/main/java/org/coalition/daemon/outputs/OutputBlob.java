package org.coalition.daemon.outputs;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Optional;
import org.apache.commons.io.input.BoundedInputStream;
import org.coalition.handler.ScriptRunner;
import org.coalition.staging.StagingRefused;
import org.coalition.staging.TarBundle;

/**
 * The bytes a run's output travels in ({@link RunOutputs}): a header line
 * {@code coalition-output 1 OUT ERR}, then OUT bytes of standard output and ERR of standard error;
 * or, for a run that wrote files, {@code coalition-output 2 OUT ERR FILES} and a tar of FILES bytes
 * after the streams.
 */
final class OutputBlob {
  private static final String HEADER = "coalition-output 1 ";
  private static final String HEADER_FILES = "coalition-output 2 ";

  private OutputBlob() {}

  /** The header line of a blob with streams of {@code out} and {@code err} bytes, and {@code files} bytes of files if any. */
  static byte[] header(long out, long err, Optional<Long> files) {
    return (files.isPresent() ? HEADER_FILES + out + " " + err + " " + files.get() : HEADER + out + " " + err).concat("\n")
        .getBytes(StandardCharsets.US_ASCII);
  }

  static byte[] encode(byte[] stdout, byte[] stderr) {
    byte[] header = header(stdout.length, stderr.length, Optional.empty());
    return ByteBuffer.allocate(header.length + stdout.length + stderr.length).put(header).put(stdout).put(stderr).array();
  }

  /**
   * Reads a stored blob: its streams into memory, and for a run that wrote files its tar, checked
   * entry by entry ({@link TarBundle#copy}, at most {@code maxFilesBytes} of files), into
   * {@code filesTarget}.
   *
   * @throws IllegalArgumentException when the blob is garbled
   * @throws StagingRefused when its tar breaks the rules (a hostile or broken executor)
   */
  static CapturedOutput read(Path blob, Path filesTarget, long maxFilesBytes) throws IOException {
    long size = Files.size(blob);
    try (InputStream in = new BufferedInputStream(Files.newInputStream(blob, LinkOption.NOFOLLOW_LINKS))) {
      ByteArrayOutputStream line = new ByteArrayOutputStream();
      for (int c = in.read(); c != '\n'; c = in.read()) {
        if (c < 0 || line.size() >= 64) {
          throw new IllegalArgumentException("output blob does not start with a 'coalition-output' line");
        }
        line.write(c);
      }
      String header = line.toString(StandardCharsets.US_ASCII);
      long[] n = lengths(header, header.startsWith(HEADER_FILES) ? 3 : 2);
      long files = n.length == 3 ? n[2] : 0;
      if (n[0] > ScriptRunner.MAX_STREAM + 64 || n[1] > ScriptRunner.MAX_STREAM + 64 || line.size() + 1 + n[0] + n[1] + files != size) {
        throw new IllegalArgumentException("output blob header '" + header + "' does not match its " + size + " bytes");
      }
      byte[] out = in.readNBytes((int) n[0]);
      byte[] err = in.readNBytes((int) n[1]);
      if (files == 0) {
        return new CapturedOutput(out, err);
      }
      TarBundle.Checked checked;
      try (OutputStream target = Files.newOutputStream(filesTarget, StandardOpenOption.CREATE_NEW)) {
        checked = TarBundle.copy(BoundedInputStream.builder().setInputStream(in).setMaxCount(files).get(), target, maxFilesBytes);
      } catch (IOException | RuntimeException e) {
        Files.deleteIfExists(filesTarget);
        throw e;
      }
      return new CapturedOutput(out, err, Optional.of(filesTarget), checked.leftOut());
    }
  }

  /** The lengths a header line gives after its version: {@code count} of them, each a whole number. */
  private static long[] lengths(String header, int count) {
    String[] parts = header.split(" ");
    if (!(header.startsWith(HEADER) || header.startsWith(HEADER_FILES)) || parts.length != 2 + count) {
      throw new IllegalArgumentException("output blob header '" + header + "' is not 'coalition-output 1 OUT ERR' or 'coalition-output 2 OUT ERR FILES'");
    }
    long[] n = new long[count];
    for (int i = 0; i < count; i++) {
      try {
        n[i] = Long.parseLong(parts[2 + i]);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("output blob header '" + header + "' has bad lengths", e);
      }
      if (n[i] < 0) {
        throw new IllegalArgumentException("output blob header '" + header + "' has bad lengths");
      }
    }
    return n;
  }

  /** An inline blob (version 1 only: a run that wrote files is never inline). */
  static CapturedOutput decode(byte[] blob) {
    int newline = -1;
    for (int i = 0; i < Math.min(blob.length, 64); i++) {
      if (blob[i] == '\n') {
        newline = i;
        break;
      }
    }
    String header = newline < 0 ? "" : new String(blob, 0, newline, StandardCharsets.US_ASCII);
    if (!header.startsWith(HEADER)) {
      throw new IllegalArgumentException("output blob does not start with '" + HEADER + "OUT ERR'");
    }
    long[] n = lengths(header, 2);
    if (newline + 1 + n[0] + n[1] != blob.length) {
      throw new IllegalArgumentException("output blob header '" + header + "' does not match its " + blob.length + " bytes");
    }
    int from = newline + 1;
    return new CapturedOutput(Arrays.copyOfRange(blob, from, from + (int) n[0]), Arrays.copyOfRange(blob, from + (int) n[0], blob.length));
  }
}
