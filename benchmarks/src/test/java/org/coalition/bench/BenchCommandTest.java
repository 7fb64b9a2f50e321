package org.coalition.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.coalition.cli.ExitCodes;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class BenchCommandTest {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    CommandLine cli = BenchMain.commandLine();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    return cli.execute(args);
  }

  @Test
  void helpListsBench() {
    assertEquals(ExitCodes.OK, run("--help"));
    assertTrue(out.toString().contains("bench"), () -> "bench missing from:\n" + out);
  }

  @Test
  void benchCoordinationRejectsBadValuesInOneLine() {
    for (String[] args : new String[][] {
        {"bench", "coordination", "--ensemble", "2"},
        {"bench", "coordination", "--daemons", "1"},
        {"bench", "coordination", "--jobs", "0"},
        {"bench", "coordination", "--jobs", "many"},
        {"bench", "coordination", "--session-timeout", "0s"},
        {"bench", "coordination", "--session-timeout", "2m"},
        {"bench"}}) {
      err.getBuffer().setLength(0);
      assertEquals(ExitCodes.USAGE, run(args), () -> String.join(" ", args) + ": " + err);
      assertEquals(1, err.toString().lines().filter(l -> !l.startsWith("See '")).count(), () -> "one line: " + err);
    }
    assertTrue(err.toString().contains("coordination"), err::toString);
  }
}
