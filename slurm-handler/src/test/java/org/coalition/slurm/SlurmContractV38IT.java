package org.coalition.slurm;

import org.junit.jupiter.api.Tag;

/** The handler contract through REST v0.0.38, on the testbed's Slurm 22.05 cluster. */
@Tag("testbed") // needs testbed/up's systems: .ci/run runs it once they are up
class SlurmContractV38IT extends SlurmContract {
  SlurmContractV38IT() {
    super("slurm22-c1@v0.0.38");
  }
}
