package org.coalition.slurm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import org.coalition.handler.ResourceHandler;
import org.coalition.handler.ResourceHandlerContract;
import org.coalition.testbed.Instance;

/**
 * The handler SPI's shared contract against a testbed Slurm cluster through one REST version; a
 * subclass per version the handler speaks ({@link SlurmHandler#VERSIONS}): v0.0.38 on 22.05,
 * v0.0.40 and v0.0.42 on 24.11.
 */
abstract class SlurmContract extends ResourceHandlerContract {
  private final String target;
  private final Instance slurm;

  /** {@code target} as {@link SlurmHandlerIT#connect(String)} takes it: {@code slurm24-c1@v0.0.40}. */
  SlurmContract(String target) {
    this.target = target;
    this.slurm = SlurmHandlerIT.instance(target);
  }

  @Override
  protected ResourceHandler connect() {
    SlurmHandler handler = SlurmHandlerIT.connect(target);
    assertEquals(target.split("@")[1], handler.version(), "the REST version under contract");
    return handler;
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
