package org.coalition.cli;

import java.nio.file.Path;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code coalition simulate}: "what if" on the papers' models and on real traces. */
@Command(
    name = "simulate",
    mixinStandardHelpOptions = true,
    description = "Ask \"what if\" of the simulator: the BILB model, the CloudShare fairness experiment on logs, "
        + "one federation replaying a whole log, or capacity contracts on a log. Each runs the daemon's own policy code.",
    subcommands = {SimulateBilbCommand.class, SimulateTracesCommand.class, SimulateReplayCommand.class, SimulateContractsCommand.class})
final class SimulateCommand implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "name what to simulate: bilb, traces, replay or contracts");
  }

  /** Options every simulate subcommand has. */
  static class Reporting {
    @CommandLine.Option(names = "--json", description = "Print the result as JSON on stdout (for scripts).")
    boolean json;

    @CommandLine.Option(names = "--plot", paramLabel = "FILE.png|FILE.svg", description = "Also draw the result as a bar chart.")
    Path plot;

    @CommandLine.Option(names = "--no-progress", description = "Do not show the progress bar on stderr.")
    boolean noProgress;
  }

  /** The options of the subcommands whose models draw random numbers: {@link Reporting}'s and a seed. */
  static final class Common extends Reporting {
    @CommandLine.Option(names = "--seed", defaultValue = "1", description = "Random seed; the same seed gives the same result (default ${DEFAULT-VALUE}).")
    long seed;
  }
}
