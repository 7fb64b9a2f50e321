package org.coalition.slurm;

import org.junit.jupiter.api.Tag;

/** The shared home contract on Slurm 24.11 (the testbed's {@code slurm24-c1}). */
@Tag("testbed") // needs testbed/up's systems: .ci/run runs it once they are up
class SlurmHomeContract24IT extends SlurmHomeContract {
  SlurmHomeContract24IT() {
    super("slurm24-c1");
  }
}
