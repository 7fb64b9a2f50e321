package org.coalition.handler;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading the OOM kills of a process's memory cgroup, v1 and v2, from a cgroup tree laid out as the kernel's. */
class OomKillsTest {
  @TempDir Path root;

  @Test
  void cgroupV1CountsInMemoryOomControlOfTheMemoryHierarchy() throws Exception {
    Path step = Files.createDirectories(root.resolve("memory/slurm/uid_19002/job_7/step_batch"));
    Files.writeString(step.resolve("memory.oom_control"), "oom_kill_disable 0\nunder_oom 0\noom_kill 2\n");
    List<String> membership = List.of("12:pids:/slurm/uid_19002/job_7/step_batch", "4:memory:/slurm/uid_19002/job_7/step_batch",
        "1:name=systemd:/", "0::/");
    assertEquals(OptionalLong.of(2), OomKills.count(membership, root));
  }

  @Test
  void cgroupV2CountsInMemoryEventsOfTheUnifiedHierarchy() throws Exception {
    Path step = Files.createDirectories(root.resolve("system.slice/slurmstepd.scope/job_7/step_batch/user/task_0"));
    Files.writeString(step.resolve("memory.events"), "low 0\nhigh 0\nmax 12\noom 1\noom_kill 1\noom_group_kill 0\n");
    assertEquals(OptionalLong.of(1), OomKills.count(List.of("0::/system.slice/slurmstepd.scope/job_7/step_batch/user/task_0"), root));
  }

  @Test
  void noMemoryCgroupOrNoFileGivesNoCount() {
    assertEquals(OptionalLong.empty(), OomKills.count(List.of("4:memory:/not/there"), root), "a cgroup this process cannot read");
    assertEquals(OptionalLong.empty(), OomKills.count(List.of(), root), "no cgroups at all");
    assertEquals(OptionalLong.empty(), OomKills.count(List.of("4:memory:/../../etc"), root), "a path that leaves the tree is not followed");
  }
}
