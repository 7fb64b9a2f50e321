package org.coalition.bench;

import java.net.URISyntaxException;
import java.nio.file.Path;

/** Where the shipped jar of this source tree is: {@code cli/target/coalition.jar}, beside the benchmarks' module. */
final class BenchJars {
  private BenchJars() {}

  /** The cli jar of the tree this class was built in (from {@code benchmarks/target/coalition-bench.jar} or {@code benchmarks/target/classes}). */
  static Path cliJar() {
    try {
      Path self = Path.of(BenchJars.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      return self.getParent().getParent().getParent().resolve("cli").resolve("target").resolve("coalition.jar");
    } catch (URISyntaxException e) {
      throw new IllegalStateException("cannot tell where the benchmarks' classes are: " + e.getMessage(), e);
    }
  }
}
