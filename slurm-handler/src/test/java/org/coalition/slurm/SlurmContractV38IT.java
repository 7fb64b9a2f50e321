package org.coalition.slurm;

/** The handler contract through REST v0.0.38, on the testbed's Slurm 22.05 cluster. */
class SlurmContractV38IT extends SlurmContract {
  SlurmContractV38IT() {
    super("slurm22-c1@v0.0.38");
  }
}
