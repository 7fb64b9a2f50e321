package org.coalition.slurm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Array tasks' names, lists and variables, against what Slurm 22.05 and 24.11 set (measured on the testbed, 2026-11-26). */
class SlurmArrayTest {
  private static String variables(String submitted, long task) {
    Map<String, String> env = new SlurmArray(276, task, "", submitted).environment(task);
    return env.get("SLURM_ARRAY_TASK_COUNT") + " " + env.get("SLURM_ARRAY_TASK_MIN") + " " + env.get("SLURM_ARRAY_TASK_MAX") + " "
        + env.get("SLURM_ARRAY_TASK_STEP");
  }

  @Test
  void aTasksVariablesAreThoseSlurmSets() {
    // COUNT MIN MAX STEP as both releases printed them for sbatch --array=SPEC
    assertEquals("5 0 4 1", variables("0-4", 0));
    assertEquals("3 1 10 1", variables("1,3,10", 1));
    assertEquals("4 0 9 3", variables("0-10:3", 0), "the highest index run, not the range's end");
    assertEquals("1 5 5 1", variables("5", 5));
    assertEquals("4 2 9 1", variables("2,7-9", 2));
    assertEquals("6 1 20 5", variables("1-3,10-20:5", 1));
    assertEquals("5 1 14 2", variables("1,3,10-14:2", 1));
    Map<String, String> env = new SlurmArray(276, 5, "", "0-49").environment(5);
    assertEquals("276", env.get("SLURM_ARRAY_JOB_ID"));
    assertEquals("5", env.get("SLURM_ARRAY_TASK_ID"));
    assertEquals(6, env.size());
  }

  @Test
  void theRecordOfTasksNotSplitOffStandsForEachOfThem() {
    assertEquals(List.of(0L, 1L, 2L, 4L), new SlurmArray(276, -1, "0-2,4", "0-4").tasks());
    assertEquals(List.of(3L), new SlurmArray(276, 3, "", "0-4").tasks());
    assertEquals(List.of(0L, 3L, 6L), new SlurmArray(276, -1, "0-6:3%2", "0-6:3%2").tasks());
    assertEquals("276_3", new SlurmArray(276, 3, "", "0-4").name(3));
  }

  @Test
  void aHostileOrHugeTaskListIsBounded() {
    assertEquals(SlurmArray.MAX_TASKS, SlurmArray.indices("0-4000000").cardinality());
    assertEquals(0, SlurmArray.indices("0-999999999").cardinality(), "past Slurm's largest index: left out");
    assertEquals(List.of(1L), new SlurmArray(1, -1, "1,x,-3,4-", "").tasks(), "what does not parse is left out");
  }

  @Test
  void onlyAnArrayTheFilterNamedAndThatRunsAllItsTasksAtOnceIsTaken() {
    assertTrue(SlurmJob.federable("coalition:federable", SlurmArray.NONE, 0));
    assertTrue(SlurmJob.federable("coalition:federable array=0-4", SlurmArray.of(276, null, "0-4", "coalition:federable array=0-4"), 0));
    assertFalse(SlurmJob.federable("coalition:federable", SlurmArray.of(276, null, "0-4", "coalition:federable"), 0),
        "marked by a filter from before arrays federated: every task would replay one run");
    assertFalse(SlurmJob.federable("coalition:federable array=0-4", SlurmArray.of(276, null, "0-4", "coalition:federable array=0-4"), 2),
        "an administrator limited it to 2 tasks at once (ArrayTaskThrottle): runs elsewhere would not count");
    assertFalse(SlurmJob.federable("", SlurmArray.of(276, null, "0-4", "array=0-4"), 0));
    assertEquals("0-10:3", SlurmArray.of(276, null, "0-10:3", "coalition:federable array=0-10:3 site note").submitted());
    assertEquals(SlurmArray.NONE, SlurmArray.of(0, null, "", "coalition:federable"));
  }
}
