package org.coalition.slurm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Which jobs cannot run elsewhere as they ask: several nodes, or GRES; CPUs per task are no GRES. */
class SlurmJobTest {
  @Test
  void severalNodesOrGresKeepAJobHome() {
    assertEquals("", SlurmJob.staysHome(1, null, "", null));
    assertEquals("", SlurmJob.staysHome(0, "cpu:4", "", "cpu=2"), "--cpus-per-task is stored as a TRES per task");
    assertEquals("it asks for 2 nodes, and jobs run elsewhere on one node", SlurmJob.staysHome(2, null, null, null));
    assertEquals("it asks for gres/gpu:1, and jobs run elsewhere without GPUs or other GRES", SlurmJob.staysHome(1, "gres/gpu:1", null, null));
    assertEquals("it asks for gres:gpu:2, and jobs run elsewhere without GPUs or other GRES", SlurmJob.staysHome(1, null, "gres:gpu:2", null),
        "--gpus=2, as Slurm 22.05 spells it");
    assertEquals("it asks for gres/gpu:1, and jobs run elsewhere without GPUs or other GRES",
        SlurmJob.staysHome(1, null, null, "cpu:2,gres/gpu:1"));
  }
}
