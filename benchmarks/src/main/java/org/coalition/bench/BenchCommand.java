package org.coalition.bench;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code coalition bench}: benchmarks that print measured figures. */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    description = "Benchmarks that print measured figures.",
    subcommands = {BenchCoordinationCommand.class, BenchE2eCommand.class})
final class BenchCommand implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "name what to benchmark: coordination or e2e");
  }
}
