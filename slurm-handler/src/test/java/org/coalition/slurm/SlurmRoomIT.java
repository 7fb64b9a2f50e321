package org.coalition.slurm;

import static org.coalition.slurm.SlurmFilterIT.fields;
import static org.coalition.slurm.SlurmFilterIT.handler;
import static org.coalition.slurm.SlurmFilterIT.sbatch;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.coalition.handler.HomeJob;
import org.coalition.handler.HomeQueue;
import org.coalition.handler.QueueObservation;
import org.coalition.testbed.Eventually;
import org.coalition.testbed.Instance;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A home's room on real Slurm, on each REST version: a job that waits for memory beside idle cores
 * has no room (Slurm keeps it pending for {@code Resources}), so the daemon publishes it; a job whose
 * memory is free has room. Read from the nodes' {@code alloc_memory}, which each version names.
 */
@Tag("testbed") // needs testbed/up's systems: .ci/run runs it once they are up
class SlurmRoomIT {
  /** The testbed's node: 8,000 MiB of RealMemory; the filler leaves 500 of it. */
  private static final int FILLER_MB = 7500;

  @ParameterizedTest
  @ValueSource(strings = {"slurm22-c1", "slurm24-c1", "slurm24-c1@v0.0.40"})
  void aJobWaitingForMemoryBesideIdleCoresHasNoRoom(String name) {
    Instance slurm = SlurmHandlerIT.instance(name);
    SlurmHandlerIT.emptyQueue(slurm);
    String filler = sbatch(slurm, "--parsable", "-p", slurm.get("partition"), "-c", "1", "--mem=" + FILLER_MB, "-o", "/dev/null", "--wrap",
        "sleep 300");
    try (SlurmHandler handler = handler(name)) {
      Eventually.waitFor("the filler runs", Duration.ofSeconds(60), () -> "RUNNING".equals(fields(slurm, filler).get("JobState")));
      QueueObservation obs = handler.observe();
      int freeCores = obs.totalCores() - obs.allocatedCores();
      assertTrue(freeCores >= 2, "cores are idle: " + obs);
      HomeQueue.Room big = handler.room(HomeJob.builder("1", slurm.get("user")).partition(slurm.get("federated.partition")).cpus(2).memoryMb(600)
          .timeLimitSeconds(60).build(), obs);
      assertFalse(big.shapeFree(), "600 MiB wait beside " + freeCores + " idle cores: only 500 are free");
      HomeQueue.Room small = handler.room(HomeJob.builder("2", slurm.get("user")).partition(slurm.get("federated.partition")).cpus(2).memoryMb(400)
          .timeLimitSeconds(60).build(), obs);
      assertTrue(small.shapeFree(), "400 MiB fit in the 500 left");
      SlurmHandlerIT.run(slurm, "scancel", filler);
      Eventually.waitFor("the filler ends", Duration.ofSeconds(60), () -> !"RUNNING".equals(fields(slurm, filler).get("JobState")));
      QueueObservation after = handler.observe();
      assertTrue(handler.room(HomeJob.builder("1", slurm.get("user")).partition(slurm.get("federated.partition")).cpus(2).memoryMb(600)
          .timeLimitSeconds(60).build(), after).shapeFree(),
          "with the filler gone, 600 MiB are free");
    } finally {
      SlurmHandlerIT.run(slurm, "scancel", filler);
    }
  }
}
