package org.coalition.simulator.swf;

import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.zip.GZIPInputStream;

/**
 * Reads SWF logs, gzip-compressed (by content, not by name) or plain. Lines starting with ';' are
 * header or comment; "; Key: value" entries are kept. Every other non-blank line must have exactly
 * 18 numeric fields; integer fields must be integral; a field is -1 or more, except think time
 * which may be any number. Anything else is a {@link SwfFormatException} naming file and line.
 */
public final class SwfReader {
  public static final int FIELDS = 18;
  private static final String[] NAMES = {
    "job number", "submit time", "wait time", "run time", "allocated processors", "average CPU time",
    "used memory", "requested processors", "requested time", "requested memory", "status", "user id",
    "group id", "executable number", "queue number", "partition number", "preceding job number", "think time"
  };

  private SwfReader() {}

  /** Reads the whole log into memory. */
  public static SwfTrace read(Path file) {
    List<SwfJob> jobs = new ArrayList<>();
    Map<String, String> header = stream(file, jobs::add);
    return new SwfTrace(file, header, jobs);
  }

  /**
   * Streams the job lines to {@code sink} in file order and returns the header entries.
   *
   * @throws SwfFormatException for a malformed line; {@link UncheckedIOException} when the file
   *     cannot be read (its message names the file)
   */
  public static Map<String, String> stream(Path file, Consumer<SwfJob> sink) {
    Map<String, String> header = new LinkedHashMap<>();
    try (BufferedReader reader = open(file)) {
      String text;
      long number = 0;
      while ((text = reader.readLine()) != null) {
        number++;
        String line = text.strip();
        if (line.isEmpty()) {
          continue;
        }
        if (line.charAt(0) == ';') {
          headerEntry(line, header);
          continue;
        }
        sink.accept(parse(file, number, line));
      }
    } catch (NoSuchFileException e) {
      throw new UncheckedIOException("trace file not found: " + file, e);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read trace " + file + ": " + e.getMessage(), e);
    }
    return header;
  }

  private static BufferedReader open(Path file) throws IOException {
    InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 16);
    in.mark(2);
    int b1 = in.read();
    int b2 = in.read();
    in.reset();
    if (b1 == 0x1f && b2 == 0x8b) {
      in = new GZIPInputStream(in, 1 << 16);
    }
    return new BufferedReader(new InputStreamReader(in, StandardCharsets.US_ASCII), 1 << 16);
  }

  private static void headerEntry(String line, Map<String, String> header) {
    String body = line.substring(1).strip();
    int colon = body.indexOf(':');
    if (colon > 0 && body.substring(0, colon).matches("[A-Za-z][A-Za-z0-9_ ]*")) {
      header.putIfAbsent(body.substring(0, colon).strip(), body.substring(colon + 1).strip());
    }
  }

  static SwfJob parse(Path file, long number, String line) {
    String[] parts = line.split("\\s+");
    if (parts.length != FIELDS) {
      throw new SwfFormatException(file, number, "expected " + FIELDS + " fields, found " + parts.length);
    }
    double[] v = new double[FIELDS];
    for (int i = 0; i < FIELDS; i++) {
      try {
        v[i] = Double.parseDouble(parts[i]);
      } catch (NumberFormatException e) {
        throw new SwfFormatException(file, number, "field " + (i + 1) + " (" + NAMES[i] + ") is not a number: '" + parts[i] + "'");
      }
      if (!Double.isFinite(v[i])) {
        throw new SwfFormatException(file, number, "field " + (i + 1) + " (" + NAMES[i] + ") is not finite: '" + parts[i] + "'");
      }
      if (i != 17 && v[i] < -1) {
        throw new SwfFormatException(file, number, "field " + (i + 1) + " (" + NAMES[i] + ") is " + parts[i] + "; only -1 may be negative");
      }
    }
    return new SwfJob(
        integral(file, number, v, 0), v[1], v[2], v[3], (int) integral(file, number, v, 4), v[5], v[6],
        (int) integral(file, number, v, 7), v[8], v[9], (int) integral(file, number, v, 10),
        (int) integral(file, number, v, 11), (int) integral(file, number, v, 12), (int) integral(file, number, v, 13),
        (int) integral(file, number, v, 14), (int) integral(file, number, v, 15), integral(file, number, v, 16), v[17]);
  }

  private static long integral(Path file, long number, double[] v, int i) {
    double x = v[i];
    if (x != Math.rint(x) || Math.abs(x) > Integer.MAX_VALUE && i != 0 && i != 16) {
      throw new SwfFormatException(file, number, "field " + (i + 1) + " (" + NAMES[i] + ") must be a whole number, was " + x);
    }
    return (long) x;
  }
}
