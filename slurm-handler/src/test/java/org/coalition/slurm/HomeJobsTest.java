package org.coalition.slurm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.OptionalInt;
import org.coalition.handler.HomeJob;
import org.coalition.job.JobLayout;
import org.junit.jupiter.api.Test;

/** Slurm's records turned into the daemon's jobs: one per job, one per array task, each once. */
class HomeJobsTest {
  private static SlurmJob record(String id, String reason, SlurmArray array) {
    return new SlurmJob(id, "PENDING", "federated", 1, 100, 600, OptionalInt.empty(), reason, "alice",
        SlurmJob.federable("coalition:federable" + (array.any() ? " array=" + array.submitted() : ""), array, 0), "", "/home/alice", "",
        array, JobLayout.ONE);
  }

  @Test
  void eachTaskIsAJobOfItsOwnListedOnceWhicheverRecordHoldsIt() {
    List<SlurmJob> records = List.of(
        record("277", "Resources", new SlurmArray(276, 3, "", "0-4")), // task 3, split off
        // the array's record of the others, read before task 3 split off: it still names it
        record("276", "Resources", new SlurmArray(276, -1, "0-4", "0-4")),
        record("9", "Priority", SlurmArray.NONE),
        record("300", "Resources", new SlurmArray(300, 0, "", "0")));
    List<HomeJob> jobs = HomeJobs.of(records, id -> false);
    assertEquals(List.of("9", "276_0", "276_1", "276_2", "276_3", "276_4", "300_0"), jobs.stream().map(HomeJob::id).toList());
    HomeJob three = jobs.get(4);
    assertEquals("3", three.environment().get("SLURM_ARRAY_TASK_ID"));
    assertEquals("5", three.environment().get("SLURM_ARRAY_TASK_COUNT"));
    assertEquals(100, three.memoryMb());
    assertEquals("/home/alice", three.workDir());
  }

  @Test
  void aSplitTaskReleasedToReplayIsNotReadyAgainButItsSiblingsAre() {
    List<SlurmJob> records = List.of(record("277", "None", new SlurmArray(276, 3, "", "0-4")),
        record("276", "Resources", new SlurmArray(276, -1, "0-2,4", "0-4")));
    List<HomeJob> jobs = HomeJobs.of(records, id -> id.equals("277"));
    assertEquals(List.of(true, true, true, false, true), jobs.stream().map(HomeJob::ready).toList());
  }
}
