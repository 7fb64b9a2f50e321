package org.coalition.gridengine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.coalition.handler.HandlerException;
import org.coalition.handler.PilotHandle;
import org.coalition.handler.PilotState;
import org.coalition.handler.QueueObservation;
import org.coalition.handler.ResourceHandler;
import org.coalition.handler.ResourceHandlerContract;
import org.coalition.handler.Tool;
import org.coalition.testbed.Command;
import org.coalition.testbed.Eventually;
import org.coalition.testbed.Instance;
import org.coalition.testbed.Testbed;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The handler SPI's shared contract against the testbed's real Grid Engine 8.1.9 (pilots through
 * its libdrmaa, load through {@code qstat -xml}), and what is Grid Engine's own.
 */
@Tag("testbed") // needs testbed/up's systems: .ci/run runs it once they are up
class GridEngineContractIT extends ResourceHandlerContract {
  private final Instance sge = Testbed.require("sge");

  static GridEngineHandler.Config config(Instance sge) {
    return GridEngineHandler.Config.of(Optional.of(sge.path("drmaa.library")))
        .withQstat(new Tool(List.of(sge.tool("qstat").toString()), Map.of(), Duration.ofSeconds(30)));
  }

  @Override
  protected ResourceHandler connect() {
    return GridEngineHandler.connect(config(sge));
  }

  @Override
  protected String account() {
    return sge.get("user");
  }

  @Override
  protected String partition() {
    return sge.get("queue");
  }

  @Override
  protected int totalCores() {
    return Integer.parseInt(sge.get("slots"));
  }

  @Override
  protected Path jobsFolder() {
    return sge.path("jobs.dir");
  }

  @Override
  protected void emptyQueue() {
    removeAll(sge);
  }

  /** Deletes every job of the cluster and waits until qstat lists none (up to 3 minutes: a replay's end under load). */
  static void removeAll(Instance sge) {
    Command.of(sge.tool("qdel"), "-u", "*").run();
    Eventually.waitFor(() -> "Grid Engine's queue to empty", Duration.ofMinutes(3), Duration.ofMillis(250),
        () -> Command.of(sge.tool("qstat"), "-u", "*").run().requireSuccess().stdout().isBlank());
  }

  @Test
  void pendingArrayTasksAndTimeLimitsOfUsersJobsAreCounted() {
    Command.of(sge.tool("qsub"), "-h", "-b", "y", "-t", "1-5:2", "-l", "h_rt=0:10:00", "-pe", "smp", "2", "-o", "/dev/null", "-j", "y",
        "/bin/true").asUser(account()).run().requireSuccess();
    Command.of(sge.tool("qsub"), "-h", "-b", "y", "-o", "/dev/null", "-j", "y", "/bin/true").asUser(account()).run().requireSuccess();
    QueueObservation o = observeUntil("4 pending tasks", x -> x.pendingJobs() == 4);
    // 3 tasks x 2 slots x 600 s, and one job without h_rt at the default hour.
    assertEquals(3 * 2 * 600.0 + 3600.0, o.pendingCoreSeconds(), 1e-9, o.toString());
  }

  @Test
  void aPilotAsksItsMemoryThroughTheSitesMemoryComplexAndRunsWhereAHostHasIt() {
    PilotHandle p = handler().submit(pilot("coalition-pilot-mem", 1, "true", true)); // 100 MB
    String job = Command.of(sge.tool("qstat"), "-j", p.nativeId()).run().requireSuccess().stdout();
    assertTrue(job.lines().anyMatch(l -> l.startsWith("hard resource_list:") && l.contains("mem_free=100M")), job);
    handler().release(p);
    waitFor(p, "ran on a host with 100 MB free and ended", s -> s.state() == PilotState.COMPLETED);
  }

  @Test
  void aBrokenQstatIsAClearError() {
    GridEngineHandler.Config broken = config(sge).withQstat(Tool.of("/nonexistent/qstat", Duration.ofSeconds(5)));
    HandlerException e = assertThrows(HandlerException.class, () -> GridEngineHandler.connect(broken));
    assertEquals(HandlerException.Category.UNAVAILABLE, e.category());
    assertTrue(e.getMessage().contains("/nonexistent/qstat"), e.getMessage());
  }
}
