package org.coalition.cli;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code coalition completion bash}: the bash completion script of every command and option,
 * generated from the command line itself (picocli's {@code AutoComplete}), so it cannot drift.
 * Install: {@code coalition completion bash > /etc/bash_completion.d/coalition}.
 */
@Command(name = "completion", mixinStandardHelpOptions = true,
    description = {"Print the shell completion script of every command and option (bash; zsh reads it through bashcompinit).",
        "Install it with: coalition completion bash > /etc/bash_completion.d/coalition"})
final class CompletionCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Parameters(paramLabel = "SHELL", description = "bash")
  String shell;

  @Override
  public Integer call() {
    if (!"bash".equals(shell)) {
      throw new IllegalArgumentException("SHELL must be bash, was '" + shell + "' (zsh reads the bash script through bashcompinit)");
    }
    PrintWriter out = spec.commandLine().getOut();
    out.print(AutoComplete.bash("coalition", spec.root().commandLine()));
    out.flush();
    return ExitCodes.OK;
  }
}
