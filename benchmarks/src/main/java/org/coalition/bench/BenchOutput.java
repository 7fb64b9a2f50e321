package org.coalition.bench;

import picocli.CommandLine.Option;

/** The output options every benchmark takes: JSON for scripts, and the progress bar. */
final class BenchOutput {
  @Option(names = "--json", description = "Print the result as JSON on stdout (for scripts).")
  boolean json;

  @Option(names = "--no-progress", description = "Do not show the progress bar on stderr.")
  boolean noProgress;
}
