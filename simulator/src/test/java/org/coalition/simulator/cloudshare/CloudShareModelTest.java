package org.coalition.simulator.cloudshare;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.coalition.policy.fairness.PolicyName;
import org.coalition.simulator.random.Variates;
import org.coalition.simulator.swf.SwfJob;
import org.coalition.simulator.swf.SwfJobs;
import org.junit.jupiter.api.Test;

class CloudShareModelTest {
  /** A random case: {@code sites} sites, bursts of tasks of random users. */
  private static CloudShareCase randomCase(long seed, int sites, Scenario scenario) {
    Variates random = new Variates(seed);
    List<SwfJob> jobs = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      jobs.add(SwfJobs.ran(i, random.uniform() * 20 * 3600, 1 + random.uniform() * 4 * 3600, 1 + random.uniform(6), random.uniform(12)));
    }
    jobs.sort((a, b) -> Double.compare(a.submit(), b.submit()));
    return CloudShareCase.of("random", jobs, 0, scenario, 4 * sites, sites, random.split());
  }

  @Test
  void jobsBecomeOneCoreOneHourTasks() {
    // 3 processors for 2.5 hours: 3 * ceil(2.5) = 9 tasks; a job outside the 24 hours is left out;
    // a job that never ran (run time -1) too.
    List<SwfJob> jobs = List.of(SwfJobs.ran(1, 100, 2.5 * 3600, 3, 7), SwfJobs.ran(2, 200, -1, 2, 7), SwfJobs.ran(3, 25 * 3600, 60, 1, 7));
    CloudShareCase c = CloudShareCase.of("t", jobs, 0, Scenario.EQUAL_CORES, 10, 2, new Variates(1));
    assertEquals(1, c.groups().size());
    assertEquals(9, c.groups().get(0).tasks());
    assertEquals(100 / 3600.0, c.groups().get(0).release(), 1e-12);
    assertArrayEquals(new int[] {5, 5}, c.cores());
  }

  @Test
  void scenariosSplitCores() {
    assertArrayEquals(new int[] {21, 20, 20, 20, 20}, Scenario.EQUAL_CORES.cores(101, 5));
    // Zipf: 100 / (k * H5), H5 = 2.2833
    assertArrayEquals(new int[] {44, 22, 15, 11, 9}, Scenario.ZIPF_CORES.cores(100, 5));
    assertThrows(IllegalArgumentException.class, () -> Scenario.EQUAL_CORES.cores(3, 5));
    assertEquals(Scenario.BACKGROUND, Scenario.of(3));
    assertThrows(IllegalArgumentException.class, () -> Scenario.of(0));
  }

  @Test
  void everyAlgorithmSplitsTheSameTotalWaitInEveryCoalitionAndShapleyIsEfficient() {
    // With unit tasks, any work-conserving schedule has the same total wait (the paper's
    // condition for using it as a coalition value), so in every coalition each algorithm's waits
    // sum to its value, which the Shapley values of the restricted game also sum to.
    for (Scenario scenario : Scenario.values()) {
      for (long seed = 1; seed <= 5; seed++) {
        CloudShareCase c = randomCase(seed, 4, scenario);
        CaseResult r = CloudShareModel.evaluate(c, List.of(PolicyName.values()), seed);
        assertEquals(11, r.coalitions().size(), "2^4 - 1 coalitions less the 4 of one site");
        assertArrayEquals(new int[] {0, 1, 2, 3}, r.grand().members());
        assertTrue(sum(r.grand().shapley()) > 0, "the random cases must have waits: " + scenario + " seed " + seed);
        for (CaseResult.Coalition coalition : r.coalitions()) {
          assertEquals(Integer.bitCount(coalition.mask()), coalition.members().length);
          double fair = sum(coalition.shapley());
          for (PolicyName a : PolicyName.values()) {
            String what = a + " in coalition " + coalition.mask() + ", " + scenario + " seed " + seed;
            assertEquals(fair, sum(coalition.waits().get(a.name())), 1e-6 * Math.max(1, fair), what);
            assertTrue(coalition.unfairnessL1().get(a.name()) >= coalition.unfairnessL2().get(a.name()) - 1e-9, "L1 >= L2");
          }
        }
      }
    }
  }

  @Test
  void theSameSeedGivesTheSameResult() {
    CloudShareCase c = randomCase(9, 3, Scenario.EQUAL_CORES);
    CaseResult a = CloudShareModel.evaluate(c, List.of(PolicyName.SIMPL_DIRECT, PolicyName.FAIRSHARE), 4);
    CaseResult b = CloudShareModel.evaluate(c, List.of(PolicyName.SIMPL_DIRECT, PolicyName.FAIRSHARE), 4);
    for (int i = 0; i < a.coalitions().size(); i++) {
      assertEquals(a.coalitions().get(i).unfairnessL1(), b.coalitions().get(i).unfairnessL1());
      assertArrayEquals(a.coalitions().get(i).shapley(), b.coalitions().get(i).shapley());
    }
  }

  @Test
  void moreSitesThanShapleyCanCountAreRefused() {
    CloudShareCase c = new CloudShareCase("t", 0, Scenario.EQUAL_CORES, new int[21], List.of());
    assertThrows(IllegalArgumentException.class, () -> CloudShareModel.evaluate(c, List.of(PolicyName.values()), 1));
  }

  private static double sum(double[] values) {
    double s = 0;
    for (double v : values) {
      s += v;
    }
    return s;
  }
}
