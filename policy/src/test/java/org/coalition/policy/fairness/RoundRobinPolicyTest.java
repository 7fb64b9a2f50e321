package org.coalition.policy.fairness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RoundRobinPolicyTest {
  @Test
  void neverServedFirstThenLeastRecentlyServed() {
    RoundRobinPolicy policy = new RoundRobinPolicy();
    policy.started(new QueuedJob("a", "A", 0, 1), "X", 5);
    policy.started(new QueuedJob("b", "B", 0, 1), "X", 3);
    List<QueuedJob> queue = List.of(
        new QueuedJob("a2", "A", 1, 1), new QueuedJob("b2", "B", 1, 1), new QueuedJob("c1", "C", 9, 1));
    assertEquals("c1", policy.select(queue, 10).orElseThrow().job().id(), "C was never served");
    assertEquals("b2", policy.select(queue.subList(0, 2), 10).orElseThrow().job().id(), "B served longest ago");
  }

  @Test
  void emptyQueueSelectsNothing() {
    for (PolicyName name : PolicyName.values()) {
      assertTrue(name.create(Map.of()).select(List.of(), 0).isEmpty());
    }
  }

  @Test
  void withinASiteTheLongestWaitingJobThenTheSmallestId() {
    JobSelectionPolicy policy = PolicyName.SIMPL_DIRECT.create(Map.of());
    List<QueuedJob> queue = List.of(
        new QueuedJob("j3", "A", 2, 1), new QueuedJob("j2", "A", 1, 1), new QueuedJob("j1", "A", 1, 1));
    assertEquals("j1", policy.select(queue, 5).orElseThrow().job().id());
  }
}
