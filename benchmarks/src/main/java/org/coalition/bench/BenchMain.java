package org.coalition.bench;

import org.coalition.cli.CoalitionCommand;
import org.coalition.cli.Logging;
import picocli.CommandLine;

/**
 * Entry point of the benchmarks' jar ({@code bin/coalition bench ...}): the whole command line
 * plus {@code bench}, whose in-process ZooKeeper servers (curator-test) the shipped jar does not carry.
 */
public final class BenchMain {
  private BenchMain() {}

  /** The command line with {@code bench}; tests execute it in-process. */
  public static CommandLine commandLine() {
    return CoalitionCommand.commandLine(new BenchCommand());
  }

  public static void main(String[] args) {
    Logging.configure(System.getenv("COALITION_LOG_FORMAT"));
    System.exit(commandLine().execute(args));
  }
}
