package org.coalition.policy.fairness;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The two-site example of the CloudShare paper (Section 3.2.3, Figures 2 and 3): A and B own one
 * single-core machine each; A submits jobs at 0, 2, 4, 6 and 8, B submits two jobs at 4. At time 4
 * DirectContr sees A and B with equal priority (all work so far was local), while FairShare
 * favours B (all completed work is A's) and starts both of B's jobs at once, delaying A.
 *
 * <p>The figures' job lengths are not in the text; here every job lasts 2 time units, so A's
 * machine is exactly busy with A's own jobs. The assertions are the paper's statements about the
 * decisions at time 4.
 */
class CloudShareExampleTest {
  private static final Map<String, Integer> CORES = Map.of("A", 1, "B", 1);

  /** History up to time 4: A1 ran on A in [0, 2], A2 on A in [2, 4]. */
  private static JobSelectionPolicy withHistory(PolicyName name) {
    JobSelectionPolicy policy = name.create(CORES);
    QueuedJob a1 = new QueuedJob("A1", "A", 0, 1);
    QueuedJob a2 = new QueuedJob("A2", "A", 2, 1);
    policy.started(a1, "A", 0);
    policy.finished("A1", 2);
    policy.started(a2, "A", 2);
    policy.finished("A2", 4);
    return policy;
  }

  /** At time 4 both machines are free: which two jobs start? */
  private static List<String> startsAtTimeFour(PolicyName name) {
    JobSelectionPolicy policy = withHistory(name);
    List<QueuedJob> queue = new ArrayList<>(List.of(
        new QueuedJob("A3", "A", 4, 1), new QueuedJob("B1", "B", 4, 1), new QueuedJob("B2", "B", 4, 1)));
    List<String> started = new ArrayList<>();
    for (String machine : new String[] {"A", "B"}) {
      Selection pick = policy.select(queue, 4).orElseThrow();
      policy.started(pick.job(), machine, 4);
      queue.remove(pick.job());
      started.add(pick.job().id());
    }
    return started;
  }

  @Test
  void directContrSeesEqualPrioritiesAtTimeFour() {
    for (Utility u : Utility.values()) {
      DirectContrPolicy policy = (DirectContrPolicy) withHistory(PolicyName.valueOf(u + "_DIRECT"));
      assertEquals(0.0, policy.ledger().priority("A", 4), 1e-12);
      assertEquals(0.0, policy.ledger().priority("B", 4), 1e-12);
    }
  }

  @Test
  void directContrStartsOneJobOfEachSiteAtTimeFour() {
    for (PolicyName name : new PolicyName[] {PolicyName.ORIG_DIRECT, PolicyName.REL_DIRECT, PolicyName.SIMPL_DIRECT}) {
      assertEquals(List.of("A3", "B1"), startsAtTimeFour(name), name.name());
    }
  }

  @Test
  void fairShareStartsBothJobsOfBAtTimeFour() {
    assertEquals(List.of("B1", "B2"), startsAtTimeFour(PolicyName.FAIRSHARE));
  }

  @Test
  void selectionsExplainThemselves() {
    Selection pick = withHistory(PolicyName.FAIRSHARE)
        .select(List.of(new QueuedJob("A3", "A", 4, 1), new QueuedJob("B1", "B", 4, 1)), 4)
        .orElseThrow();
    assertEquals("FAIRSHARE: site B has the highest -usage/cores among waiting sites (A=-4, B=0);"
        + " its longest-waiting fitting job B1 (released 4)", pick.reason());
  }
}
