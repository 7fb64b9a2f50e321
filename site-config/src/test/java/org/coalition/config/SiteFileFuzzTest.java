package org.coalition.config;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.coalition.testbed.fuzz.Mutations;

/**
 * Fuzzing the site-file reader (docs/security.md): every example site file, edited at random,
 * is either read or refused with problems that each name the file and a line; nothing else
 * escapes (no stack trace reaches an admin who mistyped a key).
 */
class SiteFileFuzzTest {
  private static final Path DIR = tempDir();
  private static final String[] EXAMPLES = examples();

  private static Path tempDir() {
    try {
      return Files.createTempDirectory("site-file-fuzz");
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String[] examples() {
    try (Stream<Path> files = Files.list(Path.of("..", "docs", "examples"))) {
      return files.filter(f -> f.toString().endsWith(".yaml")).sorted().map(f -> {
        try {
          return Files.readString(f);
        } catch (IOException e) {
          throw new IllegalStateException(e);
        }
      }).toArray(String[]::new);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  @Property(tries = 4000)
  void anEditedSiteFileIsReadOrRefusedWithProblemsNamingFileAndLine(@ForAll("edited") String text) throws IOException {
    Path file = DIR.resolve("fuzz.yaml");
    Files.writeString(file, text);
    try {
      SiteConfigReader.read(file);
    } catch (ConfigException e) {
      assertFalse(e.problems().isEmpty(), "refused without a reason");
      for (String p : e.problems()) {
        assertTrue(p.startsWith(file + ":") && p.substring(file.toString().length()).matches(":[0-9]+: .+"),
            "a problem that does not name the file and a line: " + p);
      }
    }
  }

  @Provide
  Arbitrary<String> edited() {
    return Mutations.of(4, EXAMPLES);
  }
}
