package org.coalition.cli;

/**
 * Exit codes of {@code bin/coalition}, the same for every subcommand (docs/cli.md lists them).
 * Scripts can tell "you asked wrongly" from "the system could not do it now".
 */
public final class ExitCodes {
  /** The command did what was asked. */
  public static final int OK = 0;
  /** Unexpected failure inside Coalition: a bug to report. */
  public static final int INTERNAL = 1;
  /** The command line was wrong (picocli's own usage-error code). */
  public static final int USAGE = 2;
  /** The feature or a backend it needs is not available (not built yet, unreachable). */
  public static final int UNAVAILABLE = 3;
  /** An input file (a trace, a site file) is missing or malformed; the message names file and line. */
  public static final int BAD_INPUT = 4;

  private ExitCodes() {}
}
