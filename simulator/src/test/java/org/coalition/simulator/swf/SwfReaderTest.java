package org.coalition.simulator.swf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SwfReaderTest {
  private static final String LOG = String.join("\n",
      "; Version: 2.2",
      "; MaxProcs: 240",
      "; UnixStartTime: 1027839845",
      ";",
      "; a comment without a key",
      "    1          0      -1  552.21   4   -1 -1   4  3600 -1 1 12 3 -1 1 -1 -1 -1",
      "",
      "    2         10      5      -1   0   -1 -1  -1    -1 -1 5 13 3 -1 1 -1 -1 -1",
      "");

  @TempDir Path dir;

  private Path write(String name, String text) throws IOException {
    Path file = dir.resolve(name);
    Files.writeString(file, text, StandardCharsets.US_ASCII);
    return file;
  }

  @Test
  void readsHeaderFieldsDecimalsAndUnknowns() throws IOException {
    SwfTrace trace = SwfReader.read(write("t.swf", LOG));
    assertEquals(2, trace.jobs().size());
    assertEquals(240L, trace.headerNumber("MaxProcs").orElseThrow());
    assertEquals("2.2", trace.header().get("Version"));
    SwfJob first = trace.jobs().get(0);
    assertEquals(552.21, first.runTime(), 1e-9);
    assertEquals(4, first.processors());
    assertTrue(first.ran());
    SwfJob cancelled = trace.jobs().get(1);
    assertEquals(SwfJob.CANCELLED, cancelled.status());
    assertEquals(-1, cancelled.processors());
    assertTrue(!cancelled.ran());
  }

  @Test
  void gzipIsRecognisedByContentWhateverTheName() throws IOException {
    Path file = dir.resolve("t.swf");
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(file))) {
      out.write(LOG.getBytes(StandardCharsets.US_ASCII));
    }
    assertEquals(2, SwfReader.read(file).jobs().size());
  }

  @Test
  void aFileWithoutHeaderIsFine() throws IOException {
    SwfTrace trace = SwfReader.read(write("bare.swf", "1 0 1 2 1 -1 -1 -1 -1 -1 1 1 1 -1 -1 1 -1 -1\n"));
    assertTrue(trace.header().isEmpty());
    assertEquals(1, trace.jobs().get(0).processors());
    assertEquals(2.0, trace.jobs().get(0).walltimeEstimate(), 1e-12, "no requested time: the run time");
  }

  @Test
  void malformedLinesNameFileLineAndReason() throws IOException {
    assertError("x.swf:2: expected 18 fields, found 17", "; h\n1 0 1 2 1 -1 -1 -1 -1 -1 1 1 1 -1 -1 1 -1\n");
    assertError("x.swf:1: field 4 (run time) is not a number: 'abc'", "1 0 1 abc 1 -1 -1 -1 -1 -1 1 1 1 -1 -1 1 -1 -1\n");
    assertError("x.swf:1: field 3 (wait time) is -5; only -1 may be negative", "1 0 -5 2 1 -1 -1 -1 -1 -1 1 1 1 -1 -1 1 -1 -1\n");
    assertError("x.swf:1: field 5 (allocated processors) must be a whole number, was 1.5", "1 0 1 2 1.5 -1 -1 -1 -1 -1 1 1 1 -1 -1 1 -1 -1\n");
    assertError("x.swf:1: field 2 (submit time) is not finite: 'NaN'", "1 NaN 1 2 1 -1 -1 -1 -1 -1 1 1 1 -1 -1 1 -1 -1\n");
  }

  private void assertError(String expected, String text) throws IOException {
    Path file = write("x.swf", text);
    SwfFormatException e = assertThrows(SwfFormatException.class, () -> SwfReader.read(file));
    assertEquals(file.getParent().resolve(expected).toString(), e.getMessage());
  }

  @Test
  void aMissingFileSaysSo() {
    UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> SwfReader.read(dir.resolve("none.swf")));
    assertTrue(e.getMessage().startsWith("trace file not found: "), e.getMessage());
  }
}
