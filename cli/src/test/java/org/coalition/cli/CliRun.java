package org.coalition.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/** One in-process run of {@code coalition ARGS}: its exit code, stdout and stderr. */
record CliRun(int exit, String out, String err) {
  static CliRun of(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = CoalitionCommand.commandLine();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    return new CliRun(cli.execute(args), out.toString(), err.toString());
  }
}
