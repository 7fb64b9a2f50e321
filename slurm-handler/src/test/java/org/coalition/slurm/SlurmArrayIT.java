package org.coalition.slurm;

import static org.coalition.slurm.SlurmFilterIT.comment;
import static org.coalition.slurm.SlurmFilterIT.fields;
import static org.coalition.slurm.SlurmFilterIT.handler;
import static org.coalition.slurm.SlurmFilterIT.sbatch;
import static org.coalition.slurm.SlurmFilterIT.waitEnded;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.coalition.handler.HomeJob;
import org.coalition.handler.RemoteRun;
import org.coalition.testbed.Command;
import org.coalition.testbed.Instance;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Arrays on real Slurm 22.05 and 24.11, on each REST version (issue #24, "Arrays"): the filter
 * opts an array in, the handler lists each pending task as a job of its own ({@code ARRAY_TASK})
 * with the variables Slurm would set for it, and parks, notes and replays one task while its
 * siblings wait; the task then ends at home as its run elsewhere ended, with its own state.
 */
@Tag("testbed") // needs testbed/up's systems: .ci/run runs it once they are up
class SlurmArrayIT {
  @ParameterizedTest
  @ValueSource(strings = {"slurm22-c1", "slurm24-c1", "slurm24-c1@v0.0.40"})
  void eachTaskIsParkedNotedAndReplayedOnItsOwn(String name) throws IOException {
    Instance slurm = SlurmHandlerIT.instance(name);
    Path dir = SlurmFilterIT.jobDir(slurm, "array");
    Path file = SlurmFilterIT.write(dir, "job.sh", "#!/bin/bash\necho \"task $SLURM_ARRAY_TASK_ID of $SLURM_ARRAY_TASK_COUNT ran at home\"\n");
    int cpus = Integer.parseInt(slurm.get("cpus"));
    // Every core but two is busy: the array's tasks, of all the cores each, wait for room, as tasks the daemon publishes do
    String blocker = sbatch(slurm, "--parsable", "-p", slurm.get("partition"), "-c", Integer.toString(cpus - 2), "--mem=1000",
        "-o", "/dev/null", "--wrap", "sleep 900");
    Command.Result submitted = Command.of(slurm.tool("sbatch"), "--parsable", "-p", slurm.get("federated.partition"), "-a", "0-3",
        "-c", Integer.toString(cpus), "--mem=500", "-t", "30", "-o", dir + "/%A_%a.out", file.toString())
        .asUser(slurm.get("user")).run().requireSuccess();
    String array = submitted.stdout().trim();
    try (SlurmHandler handler = handler(name)) {
      String shown = SlurmHandlerIT.run(slurm, "scontrol", "show", "job", "-o", array + "_0");
      assertTrue(shown.contains(" AdminComment=coalition:federable array=0-3 "), submitted.stderr() + shown);
      handler.observe();
      List<HomeJob> tasks = handler.federable().stream().filter(j -> j.id().startsWith(array + "_")).toList();
      assertEquals(List.of(array + "_0", array + "_1", array + "_2", array + "_3"), tasks.stream().map(HomeJob::id).toList());
      assertEquals(Map.of("SLURM_ARRAY_JOB_ID", array, "SLURM_ARRAY_TASK_ID", "2", "SLURM_ARRAY_TASK_COUNT", "4",
          "SLURM_ARRAY_TASK_MIN", "0", "SLURM_ARRAY_TASK_MAX", "3", "SLURM_ARRAY_TASK_STEP", "1"), tasks.get(2).environment());
      assertEquals(cpus, tasks.get(2).cpus());
      assertEquals(500, tasks.get(2).memoryMb());

      // What another site runs is the array's script as written, for any of its tasks
      assertEquals(Files.readString(file), handler.payload(array + "_3"));
      // Task 1 is noted (queued in the federation), task 2 parked, noted, then replayed: each splits off its array's record
      handler.note(array + "_1", "queued in the federation");
      assertEquals("coalition: queued in the federation", comment(slurm, array + "_1"));
      handler.park(array + "_2");
      assertEquals("JobHeldAdmin", fields(slurm, array + "_2").get("Reason"), "an administrator's hold, as the daemon parks");
      handler.note(array + "_2", "running at elsewhere since a moment");
      assertEquals("coalition: running at elsewhere since a moment", comment(slurm, array + "_2"));
      assertEquals("", comment(slurm, array + "_3").replace("(null)", ""), "its siblings keep their own comment");
      handler.observe();
      List<String> listed = handler.federable().stream().map(HomeJob::id).filter(id -> id.startsWith(array + "_")).toList();
      assertEquals(List.of(array + "_0", array + "_1", array + "_2", array + "_3"), listed, "split off or not, each task is listed once");
      assertTrue(handler.federable().stream().filter(j -> j.id().equals(array + "_2")).findFirst().orElseThrow().held());

      handler.replay(array + "_2", RemoteRun.exited("task 2 of 4 ran elsewhere\n", "", 3));
      Map<String, String> ended = waitEnded(slurm, array + "_2");
      assertEquals("FAILED", ended.get("JobState"), "the replayed task: " + ended);
      assertEquals("3:0", ended.get("ExitCode"));
      assertEquals("task 2 of 4 ran elsewhere\n", Files.readString(dir.resolve(array + "_2.out")));
      assertEquals("RUNNING", fields(slurm, blocker).get("JobState"), "the replay did not wait for the blocker's cores");
      for (String sibling : List.of("_0", "_1", "_3")) {
        assertEquals("PENDING", fields(slurm, array + sibling).get("JobState"), "task " + sibling + " still waits at home");
      }
      // a task parked then unparked runs here after all
      handler.park(array + "_0");
      handler.unpark(array + "_0");
      assertFalse(fields(slurm, array + "_0").get("Reason").startsWith("JobHeld"), "released: " + fields(slurm, array + "_0"));
      // who may read how each went (coalition job, for its user): the owner, split off or not, ended or not
      assertEquals(Optional.of(slurm.get("user")), handler.owner(array + "_2"));
      assertEquals(Optional.of(slurm.get("user")), handler.owner(array + "_3"));
      assertEquals(Optional.of(slurm.get("user")), handler.owner(blocker), "a job that is no array task");
      assertEquals(Optional.empty(), handler.owner("999999999"));
      assertEquals(Optional.empty(), handler.owner("../etc"));
      // Task 3, the last in the array's own record (job id ARRAY), which an update by that id would apply to every task
      assertEquals(array, SlurmHandlerIT.run(slurm, "squeue", "-h", "-j", array + "_3", "-o", "%A").strip(), "still the array's record");
      handler.park(array + "_3");
      handler.replay(array + "_3", RemoteRun.exited("task 3 of 4 ran elsewhere\n", "", 0));
      assertEquals("COMPLETED", waitEnded(slurm, array + "_3").get("JobState"));
      assertEquals("task 3 of 4 ran elsewhere\n", Files.readString(dir.resolve(array + "_3.out")));
      assertEquals("PENDING", fields(slurm, array + "_1").get("JobState"), "its siblings were left alone");
      handler.observe();
      assertFalse(handler.federable().stream().anyMatch(j -> j.id().equals(array + "_2")), "the replayed task is no longer pending");
    } finally {
      SlurmHandlerIT.run(slurm, "scancel", array, blocker);
    }
  }
}
