package org.coalition.slurm;

import org.junit.jupiter.api.Tag;

/** The handler contract through REST v0.0.40, on the testbed's Slurm 24.11 cluster. */
@Tag("testbed") // needs testbed/up's systems: .ci/run runs it once they are up
class SlurmContractV40IT extends SlurmContract {
  SlurmContractV40IT() {
    super("slurm24-c1@v0.0.40");
  }
}
