package org.coalition.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import org.coalition.simulator.swf.SwfFormatException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The top-level {@code coalition} command: lists the subcommands and dispatches to them. */
@Command(
    name = "coalition",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "Fair, money-free capacity sharing between HPC clusters."
    },
    footer = {
      "",
      "Benchmarks: bin/coalition bench --help (they run from a jar of their own, which is never shipped)."
    },
    subcommands = {
      DaemonCommand.class,
      FederationCommand.class,
      PilotCommand.class,
      DemoCommand.class,
      SimulateCommand.class,
      ConfigCommand.class,
      ClientCommands.StatusCommand.class,
      ClientCommands.SitesCommand.class,
      ClientCommands.LedgerCommand.class,
      ClientCommands.JobCommand.class,
      ClientCommands.ParticipationCommand.class,
      DrainCommand.class,
      CommandLine.HelpCommand.class
    })
public final class CoalitionCommand implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  /**
   * The configured command line; tests execute it in-process. {@code extra} are further
   * subcommands: the benchmarks' jar adds {@code bench}, which the shipped jar does not carry.
   */
  public static CommandLine commandLine(Object... extra) {
    CommandLine cli = new CommandLine(new CoalitionCommand());
    for (Object command : extra) {
      cli.addSubcommand(command);
    }
    return cli
        .setExitCodeExceptionMapper(
            e -> e instanceof CommandLine.ParameterException ? ExitCodes.USAGE : ExitCodes.INTERNAL)
        .setParameterExceptionHandler(CoalitionCommand::usageError)
        .setExecutionExceptionHandler(CoalitionCommand::failed)
        .setCaseInsensitiveEnumValuesAllowed(true)
        .registerConverter(Duration.class, new DurationConverter());
  }

  /** A wrong command line: one line naming what is wrong, with where to read more. */
  private static int usageError(CommandLine.ParameterException e, String[] args) {
    CommandLine cli = e.getCommandLine();
    String command = cli.getCommandSpec().qualifiedName();
    StringBuilder line = new StringBuilder(command).append(": ").append(e.getMessage());
    if (e instanceof CommandLine.UnmatchedArgumentException u && !u.getSuggestions().isEmpty()) {
      line.append(" (did you mean ").append(String.join(" or ", u.getSuggestions())).append("?)");
    }
    line.append(line.charAt(line.length() - 1) == '.' ? "" : ".").append(" See '").append(command).append(" --help'.");
    cli.getErr().println(line);
    cli.getErr().flush();
    return ExitCodes.USAGE;
  }

  /**
   * A command that failed: bad values and bad input files get their message on one line and a
   * usage or bad-input exit code; anything else is a bug and keeps its stack trace.
   */
  private static int failed(Exception e, CommandLine cli, CommandLine.ParseResult parsed) {
    String command = cli.getCommandSpec().qualifiedName();
    if (e instanceof IllegalArgumentException) {
      cli.getErr().println(command + ": " + e.getMessage());
      cli.getErr().flush();
      return ExitCodes.USAGE;
    }
    if (e instanceof SwfFormatException || e instanceof IOException || e instanceof UncheckedIOException) {
      cli.getErr().println(command + ": " + e.getMessage());
      cli.getErr().flush();
      return ExitCodes.BAD_INPUT;
    }
    cli.getErr().println(command + ": internal error, please report it: " + e);
    e.printStackTrace(cli.getErr());
    cli.getErr().flush();
    return ExitCodes.INTERNAL;
  }

  @Override
  public void run() {
    // "coalition" alone prints the help, like "coalition --help", and exits 0.
    spec.commandLine().usage(spec.commandLine().getOut());
  }
}
