package org.coalition.condor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import org.coalition.testbed.Command;
import org.coalition.testbed.Instance;
import org.coalition.testbed.Testbed;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Smoke test: the real HTCondor personal pool answers {@code condor_status -json} and runs a job
 * for an ordinary user. Needs {@code testbed/up condor}.
 */
@Tag("testbed") // needs testbed/up's systems: .ci/run runs it once they are up
class CondorPoolSmokeIT {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void poolAdvertisesItsSlotsAsJson() throws Exception {
    Instance condor = Testbed.require("condor");
    Command.Result status = Command.of(condor.tool("condor_status"), "-json").run().requireSuccess();
    JsonNode slots = JSON.readTree(status.stdout());
    assertTrue(slots.isArray() && slots.size() > 0, status::describe);
    // One machine; its slots (a partitionable slot, plus a dynamic slot per running or idle claim)
    // all report the machine's total cpus, and all are reached on loopback.
    for (JsonNode slot : slots) {
      assertEquals("127.0.0.1", slot.path("MyAddress").asText().replaceAll("^<([^:?]*).*", "$1"), slot::toPrettyString);
      assertEquals(Integer.parseInt(condor.get("cpus")), slot.path("TotalCpus").asInt(), slot::toPrettyString);
    }
    System.out.printf("[smoke] condor: HTCondor %s pool answers condor_status -json: %d slot(s), %s cpus in total%n",
        condor.get("condor.version"), slots.size(), condor.get("cpus"));
  }

  @Test
  void runsAJobForAnOrdinaryUser() throws Exception {
    Instance condor = Testbed.require("condor");
    String user = condor.get("user");
    Path dir = Files.createTempDirectory(condor.path("jobs.dir"), "smoke");
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
    Path submit = dir.resolve("job.sub");
    Files.writeString(submit, String.join("\n",
        "executable = /bin/sh",
        "arguments = \"-c 'id -un; exit 7'\"",
        "output = " + dir.resolve("out"),
        "error = " + dir.resolve("err"),
        "log = " + dir.resolve("log"),
        "should_transfer_files = NO",
        "queue", ""));
    Command.Result submitted = Command.of(condor.tool("condor_submit"), "-terse", submit.toString())
        .asUser(user).run().requireSuccess();
    String cluster = submitted.stdout().trim().replaceAll("\\..*", "");
    Command.of(condor.tool("condor_wait"), "-wait", "120", dir.resolve("log").toString())
        .asUser(user).timeout(Duration.ofSeconds(130)).run().requireSuccess();
    JsonNode history = JSON.readTree(Command.of(condor.tool("condor_history"), "-json", cluster,
        "-attributes", "ClusterId,ExitCode,JobStatus,Owner").asUser(user).run().requireSuccess().stdout());
    assertEquals(7, history.at("/0/ExitCode").asInt(), history::toPrettyString);
    assertEquals(4, history.at("/0/JobStatus").asInt(), "4 = Completed");
    assertEquals(user, Files.readString(dir.resolve("out")).trim());
    System.out.printf("[smoke] condor: job %s ran as %s and exited 7%n", cluster, user);
  }
}
