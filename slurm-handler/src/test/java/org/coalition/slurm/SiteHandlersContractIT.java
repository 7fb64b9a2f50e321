package org.coalition.slurm;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.coalition.handler.ResourceHandler;
import org.coalition.handler.ResourceHandlerContract;
import org.coalition.handler.SiteHandlers;
import org.coalition.testbed.Instance;
import org.coalition.testbed.Testbed;
import org.junit.jupiter.api.Tag;

/**
 * The handler contract on a site of two batch systems seen as one ({@link SiteHandlers}): the
 * testbed's Slurm 22.05 clusters c1 and c2, 8 cores each, both on this host (so one jobs folder
 * serves both). Observations are summed, pilots go where cores are free, handles name the system.
 */
@Tag("testbed") // needs testbed/up's systems: .ci/run runs it once they are up
class SiteHandlersContractIT extends ResourceHandlerContract {
  private final Instance c1 = Testbed.require("slurm22-c1");
  private final Instance c2 = Testbed.require("slurm22-c2");

  @Override
  protected ResourceHandler connect() {
    return new SiteHandlers(List.of(
        new SiteHandlers.Member("c1", SlurmHandler.connect(SlurmHandlerIT.config(c1)), Optional.empty()),
        new SiteHandlers.Member("c2", SlurmHandler.connect(SlurmHandlerIT.config(c2)), Optional.empty())));
  }

  @Override
  protected String account() {
    return c1.get("user");
  }

  @Override
  protected String partition() {
    return c1.get("partition");
  }

  @Override
  protected int totalCores() {
    return Integer.parseInt(c1.get("cpus")) + Integer.parseInt(c2.get("cpus"));
  }

  @Override
  protected List<Integer> fillingPilots() {
    return List.of(Integer.parseInt(c1.get("cpus")), Integer.parseInt(c2.get("cpus")));
  }

  @Override
  protected Path jobsFolder() {
    return c1.path("jobs.dir");
  }

  @Override
  protected void emptyQueue() {
    SlurmHandlerIT.emptyQueue(c1);
    SlurmHandlerIT.emptyQueue(c2);
  }
}
