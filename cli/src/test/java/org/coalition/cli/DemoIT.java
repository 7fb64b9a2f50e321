package org.coalition.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code coalition demo} end to end: an in-process ZooKeeper, three sites, real local processes. */
class DemoIT {
  @Test
  void theDemoEndsWithEveryJobDoneAndTheLedger() throws Exception {
    CliRun r = CliRun.of("demo", "--jobs", "12", "--seconds", "0.5", "--json", "--no-progress");
    assertEquals(ExitCodes.OK, r.exit(), r.err());
    JsonNode result = new ObjectMapper().readTree(r.out());
    assertEquals(12, result.path("jobs").size());
    for (JsonNode job : result.path("jobs")) {
      assertEquals(0, job.path("exitCode").asInt(), job.toString());
      assertTrue(List.of("north", "south", "west").contains(job.path("ranAt").asText()), job.toString());
    }
    assertEquals(3, result.path("sites").size());
  }

  @Test
  void theTableNamesEverySiteAndTheLedger() {
    CliRun r = CliRun.of("demo", "--jobs", "6", "--seconds", "0.3", "--no-progress");
    assertEquals(ExitCodes.OK, r.exit(), r.err());
    assertTrue(r.out().startsWith("Where jobs ran"), r.out());
    assertTrue(r.out().contains("home   north  south  west  jobs  mean wait s  max wait s  failed"), r.out());
    assertTrue(r.out().contains("site   cores  ran for others  contribution  utility  priority"), r.out());
  }
}
