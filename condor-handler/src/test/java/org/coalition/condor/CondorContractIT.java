package org.coalition.condor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.coalition.handler.HandlerException;
import org.coalition.handler.PilotHandle;
import org.coalition.handler.PilotSpec;
import org.coalition.handler.PilotState;
import org.coalition.handler.QueueObservation;
import org.coalition.handler.ResourceHandler;
import org.coalition.handler.ResourceHandlerContract;
import org.coalition.job.JobLayout;
import org.coalition.testbed.Command;
import org.coalition.testbed.Eventually;
import org.coalition.testbed.Instance;
import org.coalition.testbed.Testbed;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The handler SPI's shared contract against the testbed's real HTCondor 23.9 pool, and what is HTCondor's own. */
@Tag("testbed") // needs testbed/up's systems: .ci/run runs it once they are up
class CondorContractIT extends ResourceHandlerContract {
  private final Instance condor = Testbed.require("condor");

  /** The testbed's tools; its wrappers run a tool as a user when COALITION_TESTBED_USER names one. */
  static CondorTools tools(Instance condor) {
    return new CondorTools(Optional.of(condor.path("bin")), List.of(), Map.of("COALITION_TESTBED_USER", "{user}"), Duration.ofSeconds(60));
  }

  static void removeAll(Instance condor) {
    Command.of(condor.tool("condor_rm"), "-all").run();
    Eventually.waitFor(() -> "HTCondor's queue to empty", WAIT, Duration.ofMillis(250),
        () -> Command.of(condor.tool("condor_q"), "-allusers", "-json", "-attributes", "ClusterId").run().requireSuccess().stdout().isBlank());
  }

  @Override
  protected ResourceHandler connect() {
    return CondorHandler.connect(new CondorHandler.Config(tools(condor), Duration.ofHours(1)));
  }

  @Override
  protected String account() {
    return condor.get("user");
  }

  @Override
  protected String partition() {
    return "";
  }

  @Override
  protected int totalCores() {
    return Integer.parseInt(condor.get("cpus"));
  }

  @Override
  protected Path jobsFolder() {
    return condor.path("jobs.dir");
  }

  @Override
  protected void emptyQueue() {
    removeAll(condor);
  }

  @Test
  void usersIdleJobsCountWithTheirTimeLimitsAndJobsHeldByAnErrorDoNot() {
    String description = String.join("\n", "executable = /bin/true", "transfer_executable = false", "should_transfer_files = NO",
        "request_cpus = 2", "allowed_job_duration = 600", "hold = true", "queue 3", "");
    Command.of(condor.tool("condor_submit"), "-terse", "-").asUser(account()).stdin(description).run().requireSuccess();
    String noLimit = String.join("\n", "executable = /bin/true", "transfer_executable = false", "should_transfer_files = NO", "hold = true",
        "queue", "");
    Command.of(condor.tool("condor_submit"), "-terse", "-").asUser(account()).stdin(noLimit).run().requireSuccess();
    QueueObservation o = observeUntil("4 pending jobs", x -> x.pendingJobs() == 4);
    assertEquals(3 * 2 * 600.0 + 3600.0, o.pendingCoreSeconds(), 1e-9, o.toString());
  }

  @Test
  void aPilotOfAGpuGetsTheSlotsGpuAndOnlyGpusByCountUpToASlotsAreOffered() throws Exception {
    ResourceHandler h = handler();
    h.observe();
    assertTrue(h.canHold(1, 100, JobLayout.oneNode(Map.of("gpu", 1))), "the pool's slot has one GPU (testbed/lib/condor.sh)");
    assertFalse(h.canHold(1, 100, JobLayout.oneNode(Map.of("gpu", 2))), "more than a slot has");
    assertFalse(h.canHold(1, 100, JobLayout.oneNode(Map.of("gpu:a100", 1))), "HTCondor's submit language asks GPUs by count, not by type");
    assertFalse(h.canHold(1, 100, JobLayout.oneNode(Map.of("mps", 1))), "no other GRES");
    assertFalse(h.canHold(2, 100, new JobLayout(2, 2, Map.of())), "one slot, not two nodes");
    assertTrue(h.canHold(1, 100, JobLayout.ONE));
    Path out = jobsFolder().resolve("gpu-" + System.nanoTime() + ".out");
    PilotHandle p = h.submit(new PilotSpec("coalition-gpu", account(), 1, 100, 120, "", List.of("/bin/sh", "-c",
        "echo \"$_CONDOR_AssignedGPUs $CUDA_VISIBLE_DEVICES\" > " + out), Map.of(), jobsFolder().toString(), false,
        JobLayout.oneNode(Map.of("gpu", 1))));
    waitFor(p, "ran with the slot's GPU", st -> st.state() == PilotState.COMPLETED);
    assertEquals("CUDA0 CUDA0\n", Files.readString(out), "HTCondor gave the pilot its GPU (request_GPUs = 1)");
    HandlerException e = assertThrows(HandlerException.class, () -> h.submit(new PilotSpec("coalition-gpu-typed", account(), 1, 100, 120, "",
        List.of("/bin/true"), Map.of(), "/tmp", false, JobLayout.oneNode(Map.of("gpu:a100", 1)))));
    assertEquals(HandlerException.Category.REJECTED, e.category(), e.getMessage());
  }

  @Test
  void aPilotWithAPartitionOrAProgramWithoutItsPathIsRefusedAndBrokenToolsAreClearErrors() {
    try (ResourceHandler handler = connect()) {
      PilotSpec spec = new PilotSpec("p", account(), 1, 0, 120, "gpu", List.of("/bin/true"), Map.of(), "/tmp", false);
      HandlerException e = assertThrows(HandlerException.class, () -> handler.submit(spec));
      assertEquals(HandlerException.Category.REJECTED, e.category());
      assertTrue(e.getMessage().contains("no partitions"), e.getMessage());
      // a pilot may run in a sandbox on another file system (should_transfer_files = IF_NEEDED), where "java" is no program
      PilotSpec relative = new PilotSpec("p", account(), 1, 0, 120, "", List.of("java", "-version"), Map.of(), "/tmp", false);
      HandlerException r = assertThrows(HandlerException.class, () -> handler.submit(relative));
      assertEquals(HandlerException.Category.REJECTED, r.category());
      assertTrue(r.getMessage().contains("pilots.command begins with 'java'") && r.getMessage().contains("/usr/bin/java"), r.getMessage());
    }
    CondorTools missing = new CondorTools(Optional.of(Path.of("/nonexistent")), List.of(), Map.of(), Duration.ofSeconds(5));
    HandlerException e = assertThrows(HandlerException.class, () -> CondorHandler.connect(new CondorHandler.Config(missing, Duration.ofHours(1))));
    assertEquals(HandlerException.Category.UNAVAILABLE, e.category());
    assertTrue(e.getMessage().contains("/nonexistent/condor_version"), e.getMessage());
  }
}
