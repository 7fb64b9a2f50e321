package org.coalition.daemon.executor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.coalition.coordination.Claim;
import org.coalition.coordination.JobRef;
import org.coalition.coordination.JobSpec;
import org.coalition.job.JobLayout;
import org.junit.jupiter.api.Test;

/** A pilot's own rules, without a broker: which jobs it fits, and the order runs are evicted in. */
class PilotTest {
  @Test
  void aPilotRunsOnlyAJobWhoseMemoryItHas() {
    JobSpec small = JobSpec.builder("1", "home").cores(2).memoryMb(1000).walltimeSeconds(600).build();
    JobSpec big = JobSpec.builder("2", "home").cores(2).memoryMb(3000).walltimeSeconds(600).build();
    JobSpec unnamed = JobSpec.builder("3", "home").cores(2).walltimeSeconds(600).build();
    Pilot sized = new Pilot("p1", new byte[32], "fed", 2, 2000, 600, JobLayout.ONE, small.ref(), 0);
    Pilot defaulted = new Pilot("p2", new byte[32], "fed", 2, 0, 600, JobLayout.ONE, unnamed.ref(), 0);
    assertTrue(sized.fits(small, 0) && sized.fits(unnamed, 0));
    assertFalse(sized.fits(big, 0), "a pilot of 2000 MiB does not take a job of 3000");
    assertTrue(defaulted.fits(unnamed, 0));
    assertFalse(defaulted.fits(small, 0), "a pilot of the site's default memory takes no job that names memory");
  }

  @Test
  void aPilotRunsOnlyAJobLaidOutAsItIs() {
    JobLayout twoNodes = new JobLayout(2, 2, Map.of());
    JobLayout gpu = JobLayout.oneNode(Map.of("gpu", 1));
    Pilot mpi = new Pilot("p1", new byte[32], "fed", 2, 0, 600, twoNodes, new JobRef("home", "1"), 0);
    Pilot withGpu = new Pilot("p2", new byte[32], "fed", 2, 0, 600, gpu, new JobRef("home", "2"), 0);
    Pilot plain = new Pilot("p3", new byte[32], "fed", 2, 0, 600, JobLayout.ONE, new JobRef("home", "3"), 0);
    JobSpec mpiJob = JobSpec.builder("1", "home").cores(2).walltimeSeconds(600).layout(twoNodes).build();
    JobSpec gpuJob = JobSpec.builder("2", "home").cores(2).walltimeSeconds(600).layout(gpu).build();
    JobSpec plainJob = JobSpec.builder("3", "home").cores(2).walltimeSeconds(600).build();
    assertTrue(mpi.fits(mpiJob, 0) && withGpu.fits(gpuJob, 0) && plain.fits(plainJob, 0));
    assertFalse(plain.fits(gpuJob, 0), "no GPU");
    assertFalse(plain.fits(mpiJob, 0), "one node");
    assertFalse(withGpu.fits(plainJob, 0), "its srun and CUDA_VISIBLE_DEVICES would not be the job's");
    assertFalse(mpi.fits(plainJob, 0), "its srun would start two tasks");
  }

  @Test
  void runsAreEvictedFromTheHomeOfLowestPriorityFirstAndTheNewestFirstWithinAHome() {
    Pilot a1 = running("a", 10);
    Pilot a2 = running("a", 20);
    Pilot b1 = running("b", 5);
    Map<Pilot, Claim> runs = new LinkedHashMap<>();
    for (Pilot p : List.of(a1, a2, b1)) {
      runs.put(p, p.claim());
    }
    assertEquals(List.of(b1, a2, a1), Eviction.order(runs, Map.of("a", 3.0, "b", -2.0)));
  }

  private static Pilot running(String home, double startedAt) {
    JobSpec job = JobSpec.builder(Integer.toString((int) startedAt), home).cores(1).walltimeSeconds(600).build();
    Pilot p = new Pilot(home + (int) startedAt, new byte[32], "fed", 1, 0, 600, JobLayout.ONE, job.ref(), 0);
    p.asks(0);
    p.claimed(new Claim(job, "exec", 1), startedAt);
    return p;
  }
}
