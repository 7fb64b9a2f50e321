package org.coalition.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.coalition.config.ConfigException;
import org.coalition.coordination.CoordinationException;
import org.coalition.handler.HandlerException;
import org.coalition.handler.config.Suggest;
import org.coalition.simulator.swf.SwfFormatException;
import org.coalition.trust.TrustException;
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
      TrialCommand.class,
      SimulateCommand.class,
      ConfigCommand.class,
      ClientCommands.StatusCommand.class,
      ClientCommands.SitesCommand.class,
      ClientCommands.LedgerCommand.class,
      ClientCommands.JobCommand.class,
      ClientCommands.ParticipationCommand.class,
      ContractsCommand.class,
      DrainCommand.class,
      CompletionCommand.class,
      ManualCommand.class,
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
        .setExecutionStrategy(CoalitionCommand::unlessUnmatched)
        .setCaseInsensitiveEnumValuesAllowed(true)
        .registerConverter(Duration.class, new DurationConverter());
  }

  /**
   * Runs the command asked for, unless a word was not understood: picocli lets unmatched words
   * pass when {@code --help} is given ({@code coalition contract --help} would print the top
   * level's help and exit 0, as if {@code contract} were a command); here they are a usage error.
   */
  private static int unlessUnmatched(CommandLine.ParseResult parsed) {
    for (CommandLine.ParseResult p = parsed; p != null; p = p.subcommand()) {
      if (!p.unmatched().isEmpty()) {
        throw new CommandLine.UnmatchedArgumentException(p.commandSpec().commandLine(), p.unmatched());
      }
    }
    return new CommandLine.RunLast().execute(parsed);
  }

  /** A wrong command line: one line naming what is wrong, with where to read more. */
  private static int usageError(CommandLine.ParameterException e, String[] args) {
    CommandLine cli = e.getCommandLine();
    String command = cli.getCommandSpec().qualifiedName();
    StringBuilder line = new StringBuilder(command).append(": ").append(e.getMessage());
    if (e instanceof CommandLine.UnmatchedArgumentException u) {
      List<String> suggestions = u.getSuggestions().isEmpty() ? optionSuggestions(u) : u.getSuggestions();
      if (!suggestions.isEmpty()) {
        line.append(" (did you mean ").append(String.join(" or ", suggestions)).append("?)");
      }
    }
    line.append(line.charAt(line.length() - 1) == '.' ? "" : ".").append(" See '").append(command).append(" --help'.");
    cli.getErr().println(line);
    cli.getErr().flush();
    return ExitCodes.USAGE;
  }

  /** For each unmatched word that looks like an option, the command's option closest to it ({@code --jbos}: {@code --jobs}). */
  private static List<String> optionSuggestions(CommandLine.UnmatchedArgumentException u) {
    List<String> names = new ArrayList<>();
    u.getCommandLine().getCommandSpec().options().forEach(o -> names.addAll(List.of(o.names())));
    List<String> out = new ArrayList<>();
    for (String word : u.getUnmatched()) {
      String name = word.contains("=") ? word.substring(0, word.indexOf('=')) : word;
      String close = name.startsWith("--") ? Suggest.closest(name, names) : null;
      if (close != null && !out.contains(close)) {
        out.add(close);
      }
    }
    return out;
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
    if (e instanceof ConfigException c) {
      // a site file named by --config: each problem with its file and line
      c.problems().forEach(p -> cli.getErr().println(command + ": " + p));
      cli.getErr().println(command + ": the site file's keys are described in docs/site-file.md; 'coalition config check FILE' lists every problem");
      cli.getErr().flush();
      return ExitCodes.BAD_INPUT;
    }
    if (e instanceof CoordinationException c) {
      cli.getErr().println(command + ": " + c.getMessage());
      cli.getErr().flush();
      return c.kind() == CoordinationException.Kind.UNAVAILABLE ? ExitCodes.UNAVAILABLE : ExitCodes.BAD_INPUT;
    }
    if (e instanceof TrustException) {
      // a CA or key store that cannot be read or written: the message names the file
      cli.getErr().println(command + ": " + e.getMessage());
      cli.getErr().flush();
      return ExitCodes.BAD_INPUT;
    }
    if (e instanceof HandlerException h) {
      // a batch system that refused or did not answer: its message says which and why
      cli.getErr().println(command + ": " + h.getMessage());
      cli.getErr().flush();
      return h.category().retryable() ? ExitCodes.UNAVAILABLE : ExitCodes.BAD_INPUT;
    }
    if (e instanceof ApiClient.Failed) {
      cli.getErr().println(command + ": " + e.getMessage());
      cli.getErr().flush();
      return ExitCodes.UNAVAILABLE;
    }
    if (e instanceof SwfFormatException || e instanceof IOException || e instanceof UncheckedIOException) {
      // an UncheckedIOException wrapped by hand says more than its cause; one wrapped bare says only the cause
      boolean bare = e instanceof UncheckedIOException u && String.valueOf(u.getMessage()).equals(String.valueOf(u.getCause()));
      cli.getErr().println(command + ": " + describe(bare ? (Exception) e.getCause() : e));
      cli.getErr().flush();
      return ExitCodes.BAD_INPUT;
    }
    cli.getErr().println(command + ": internal error, please report it: " + e);
    e.printStackTrace(cli.getErr());
    cli.getErr().flush();
    return ExitCodes.INTERNAL;
  }

  /** What went wrong with a file, in words: Java's file errors carry only the path in their message. */
  static String describe(Exception e) {
    if (e instanceof NoSuchFileException f) {
      return f.getFile() + ": no such file or directory";
    }
    if (e instanceof AccessDeniedException f) {
      return f.getFile() + ": permission denied";
    }
    if (e instanceof FileSystemException f && f.getReason() != null) {
      return f.getFile() + ": " + f.getReason();
    }
    return String.valueOf(e.getMessage());
  }

  @Override
  public void run() {
    // "coalition" alone prints the help, like "coalition --help", and exits 0.
    spec.commandLine().usage(spec.commandLine().getOut());
  }
}
