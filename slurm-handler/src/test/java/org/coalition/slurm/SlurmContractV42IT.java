package org.coalition.slurm;

/** The handler contract through REST v0.0.42, on the testbed's Slurm 24.11 cluster. */
class SlurmContractV42IT extends SlurmContract {
  SlurmContractV42IT() {
    super("slurm24-c1@v0.0.42");
  }
}
