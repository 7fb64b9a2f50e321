package org.coalition.slurm;

/** The handler contract through REST v0.0.40, on the testbed's Slurm 24.11 cluster. */
class SlurmContractV40IT extends SlurmContract {
  SlurmContractV40IT() {
    super("slurm24-c1@v0.0.40");
  }
}
