package org.coalition.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class CoalitionCommandTest {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    CommandLine cli = CoalitionCommand.commandLine();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    return cli.execute(args);
  }

  @Test
  void helpListsEverySubcommand() {
    assertEquals(ExitCodes.OK, run("--help"));
    for (String name : new String[] {"daemon", "demo", "simulate", "status", "participation", "bench", "help"}) {
      assertTrue(out.toString().contains(name), () -> name + " missing from:\n" + out);
    }
  }

  @Test
  void noArgumentsPrintsHelp() {
    assertEquals(ExitCodes.OK, run());
    assertTrue(out.toString().startsWith("Usage: coalition"), out::toString);
  }

  @Test
  void aClientCommandWithNoDaemonSaysWhereItLooked() {
    assertEquals(ExitCodes.UNAVAILABLE, run("status", "--url", "http://127.0.0.1:9"));
    assertTrue(err.toString().contains("no daemon answers at http://127.0.0.1:9/"), err::toString);
    assertEquals("", out.toString(), "nothing on stdout: scripts must not mistake it for output");
  }

  @Test
  void unknownSubcommandIsAUsageErrorWithASuggestion() {
    assertEquals(ExitCodes.USAGE, run("simulat"));
    assertTrue(err.toString().lines().count() == 1, () -> "one line: " + err);
    assertTrue(err.toString().contains("simulate"), err::toString);
  }

  @Test
  void benchCoordinationRejectsBadValuesInOneLine() {
    for (String[] args : new String[][] {
        {"bench", "coordination", "--ensemble", "2"},
        {"bench", "coordination", "--daemons", "1"},
        {"bench", "coordination", "--jobs", "0"},
        {"bench", "coordination", "--jobs", "many"},
        {"bench"}}) {
      err.getBuffer().setLength(0);
      assertEquals(ExitCodes.USAGE, run(args), () -> String.join(" ", args) + ": " + err);
      assertEquals(1, err.toString().lines().filter(l -> !l.startsWith("See '")).count(), () -> "one line: " + err);
    }
    assertTrue(err.toString().contains("coordination"), err::toString);
  }
}
