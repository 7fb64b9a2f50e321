package org.coalition.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code coalition demo} end to end: an in-process ZooKeeper, three sites, real local processes. */
class DemoIT {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    CommandLine cli = CoalitionCommand.commandLine();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    return cli.execute(args);
  }

  @Test
  void theDemoEndsWithEveryJobDoneAndTheLedger() throws Exception {
    assertEquals(ExitCodes.OK, run("demo", "--jobs", "12", "--seconds", "0.5", "--json", "--no-progress"), err::toString);
    var result = new ObjectMapper().readTree(out.toString());
    assertEquals(12, result.path("jobs").size());
    for (var job : result.path("jobs")) {
      assertEquals(0, job.path("exitCode").asInt(), job.toString());
      assertTrue(List.of("north", "south", "west").contains(job.path("ranAt").asText()), job.toString());
    }
    assertEquals(3, result.path("sites").size());
  }

  @Test
  void theTableNamesEverySiteAndTheLedger() {
    assertEquals(ExitCodes.OK, run("demo", "--jobs", "6", "--seconds", "0.3", "--no-progress"), err::toString);
    String table = out.toString();
    assertTrue(table.startsWith("Where jobs ran"), table);
    assertTrue(table.contains("home   north  south  west  jobs  mean wait s  max wait s  failed"), table);
    assertTrue(table.contains("site   cores  ran for others  contribution  utility  priority"), table);
  }
}
