package org.coalition.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The top-level {@code coalition} command: lists the subcommands and dispatches to them. */
@Command(
    name = "coalition",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "Fair, money-free capacity sharing between HPC clusters.",
      "Subcommands marked (planned) are not available in this build yet; they say so and exit "
          + ExitCodes.UNAVAILABLE + "."
    },
    subcommands = {
      PlannedCommands.Daemon.class,
      PlannedCommands.Demo.class,
      PlannedCommands.Simulate.class,
      PlannedCommands.Status.class,
      PlannedCommands.Participation.class,
      PlannedCommands.Bench.class,
      CommandLine.HelpCommand.class
    })
public final class CoalitionCommand implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  /** The configured command line; tests execute it in-process. */
  public static CommandLine commandLine() {
    return new CommandLine(new CoalitionCommand())
        .setExitCodeExceptionMapper(
            e -> e instanceof CommandLine.ParameterException ? ExitCodes.USAGE : ExitCodes.INTERNAL)
        .setCaseInsensitiveEnumValuesAllowed(true);
  }

  @Override
  public void run() {
    // "coalition" alone prints the help, like "coalition --help", and exits 0.
    spec.commandLine().usage(spec.commandLine().getOut());
  }
}
