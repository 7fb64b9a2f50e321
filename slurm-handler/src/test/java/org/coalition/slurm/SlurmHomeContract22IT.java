package org.coalition.slurm;

import org.junit.jupiter.api.Tag;

/** The shared home contract on Slurm 22.05 (the testbed's {@code slurm22-c1}). */
@Tag("testbed") // needs testbed/up's systems: .ci/run runs it once they are up
class SlurmHomeContract22IT extends SlurmHomeContract {
  SlurmHomeContract22IT() {
    super("slurm22-c1");
  }
}
