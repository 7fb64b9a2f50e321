package org.coalition.slurm;

import java.nio.file.Path;
import org.coalition.handler.ResourceHandler;
import org.coalition.handler.ResourceHandlerContract;
import org.coalition.testbed.Instance;
import org.coalition.testbed.Testbed;

/** The handler SPI's shared contract against the testbed's Slurm 24.11 cluster (REST v0.0.42). */
class SlurmContractIT extends ResourceHandlerContract {
  private final Instance slurm = Testbed.require("slurm24-c1");

  @Override
  protected ResourceHandler connect() {
    return SlurmHandler.connect(SlurmHandlerIT.config(slurm));
  }

  @Override
  protected String account() {
    return slurm.get("user");
  }

  @Override
  protected String partition() {
    return slurm.get("partition");
  }

  @Override
  protected int totalCores() {
    return Integer.parseInt(slurm.get("cpus"));
  }

  @Override
  protected Path jobsFolder() {
    return slurm.path("jobs.dir");
  }

  @Override
  protected void emptyQueue() {
    SlurmHandlerIT.emptyQueue(slurm);
  }
}
