package org.coalition.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * Subcommands that are part of the product but not built yet. Each one says so plainly and exits
 * {@link ExitCodes#UNAVAILABLE}; none pretends to work. A subcommand leaves this file when it is
 * implemented.
 */
final class PlannedCommands {
  private PlannedCommands() {}

  /** Shared body: explain what is missing and where it is tracked. */
  abstract static class Planned implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    /** What the subcommand will do, and the issue that builds it. */
    abstract String plan();

    @Override
    public Integer call() {
      spec.commandLine().getErr().printf(
          "coalition %s: not yet available in this build. %s%n", spec.name(), plan());
      return ExitCodes.UNAVAILABLE;
    }
  }

  @Command(name = "daemon", description = "(planned) Run the federation daemon of one site.")
  static final class Daemon extends Planned {
    @Override
    String plan() {
      return "The daemon arrives with issue #6 (federation daemon end to end).";
    }
  }

  @Command(name = "status", description = "(planned) Show a site's or the federation's load, contribution and participation.")
  static final class Status extends Planned {
    @Override
    String plan() {
      return "Status needs the daemon's HTTP API (issue #6).";
    }
  }

  @Command(name = "participation", description = "(planned) Read or change declared participation levels (operators).")
  static final class Participation extends Planned {
    @Override
    String plan() {
      return "Participation levels live in the coordination layer (issue #4) and the daemon API (issue #6).";
    }
  }
}
