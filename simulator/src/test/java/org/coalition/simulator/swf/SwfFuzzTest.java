package org.coalition.simulator.swf;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.coalition.testbed.fuzz.Mutations;

/**
 * Fuzzing the SWF reader (docs/security.md): the head of a real log (CTC-SP2: its header and
 * first job lines), edited at random, is either read or refused with a {@link SwfFormatException}
 * that names the file and the line; nothing else escapes.
 */
class SwfFuzzTest {
  private static final String HEAD = """
      ; Version: 2.2
      ; Computer: IBM SP2
      ; MaxJobs: 79302
      ; MaxProcs: 512
          1        0 588530    937  306 142.00    -1   -1  35100    -1  1  97  -1 307  3 -1 -1 -1
          2   164472 356587     75   17   2.00    -1   -1    300    -1  1  81  -1 195  3 -1 -1 -1
          3   197154 459987  35268  306  32792    -1   -1  35100    -1  0  97  -1 307  3 -1 -1 -1
      """;
  private static final Path FILE = file();

  private static Path file() {
    try {
      return Files.createTempDirectory("swf-fuzz").resolve("fuzz.swf");
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  @Property(tries = 20_000)
  void anEditedLogIsReadOrRefusedNamingFileAndLine(@ForAll("edited") String text) throws IOException {
    Files.writeString(FILE, text);
    try {
      SwfTrace trace = SwfReader.read(FILE);
      assertTrue(trace.jobs().size() <= 3 + text.length(), "no more jobs than lines");
    } catch (SwfFormatException e) {
      assertTrue(e.getMessage().startsWith(FILE + ":") && e.getMessage().substring(FILE.toString().length()).matches(":[0-9]+: .+"),
          "a refusal that does not say where: " + e.getMessage());
    }
  }

  /** Bytes that are no text at all, half of them starting as gzip does: refused naming the file, as a format or a read error. */
  @Property(tries = 3000)
  void bytesThatAreNoLogAreRefusedNamingTheFile(@ForAll("bytes") byte[] bytes) throws IOException {
    Files.write(FILE, bytes);
    try {
      SwfReader.read(FILE);
    } catch (SwfFormatException | UncheckedIOException e) {
      assertTrue(e.getMessage().contains(FILE.toString()), "a refusal that does not name the file: " + e.getMessage());
    }
  }

  @Provide
  Arbitrary<byte[]> bytes() {
    Arbitrary<byte[]> raw = Arbitraries.bytes().array(byte[].class).ofMaxSize(512);
    return Arbitraries.oneOf(raw, raw.map(b -> {
      byte[] gz = new byte[b.length + 2];
      gz[0] = 0x1f;
      gz[1] = (byte) 0x8b;
      System.arraycopy(b, 0, gz, 2, b.length);
      return gz;
    }));
  }

  @Provide
  Arbitrary<String> edited() {
    return Mutations.of(4, HEAD);
  }
}
