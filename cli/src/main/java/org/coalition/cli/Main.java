package org.coalition.cli;

import picocli.CommandLine;

/** Process entry point of {@code bin/coalition}: wires the command line and exits with its code. */
public final class Main {
  private Main() {}

  public static void main(String[] args) {
    System.exit(CoalitionCommand.commandLine().execute(args));
  }
}
