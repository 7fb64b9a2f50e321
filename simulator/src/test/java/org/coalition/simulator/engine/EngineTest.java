package org.coalition.simulator.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.coalition.simulator.random.Variates;
import org.junit.jupiter.api.Test;

class EngineTest {
  @Test
  void firesInTimeOrderAndSameTimeInSchedulingOrder() {
    Engine engine = new Engine();
    List<String> fired = new ArrayList<>();
    engine.schedule(2, e -> fired.add("b@2"));
    engine.schedule(1, e -> fired.add("a@1"));
    engine.schedule(2, e -> fired.add("c@2"));
    engine.schedule(1, e -> e.schedule(2, x -> fired.add("d@2 from a")));
    engine.run();
    assertEquals(List.of("a@1", "b@2", "c@2", "d@2 from a"), fired);
    assertEquals(5, engine.fired());
    assertEquals(2, engine.now());
  }

  @Test
  void manyRandomEventsComeOutSorted() {
    Engine engine = new Engine();
    Variates random = new Variates(3);
    double[] last = {Double.NEGATIVE_INFINITY};
    int[] count = {0};
    for (int i = 0; i < 100_000; i++) {
      engine.schedule(random.uniform() * 1000, e -> {
        if (e.now() < last[0]) {
          throw new AssertionError("event at " + e.now() + " after one at " + last[0]);
        }
        last[0] = e.now();
        count[0]++;
      });
    }
    engine.run();
    assertEquals(100_000, count[0]);
    assertEquals(0, engine.pending());
  }

  @Test
  void runUntilLeavesLaterEvents() {
    Engine engine = new Engine();
    engine.schedule(1, e -> { });
    engine.schedule(5, e -> { });
    engine.runUntil(3);
    assertEquals(1, engine.fired());
    assertEquals(1, engine.pending());
  }

  @Test
  void thePastCannotBeScheduled() {
    Engine engine = new Engine();
    engine.schedule(5, e -> { });
    engine.run();
    IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> engine.schedule(4, e -> { }));
    assertEquals("cannot schedule an event at 4.0, before now (5.0)", error.getMessage());
    assertThrows(IllegalArgumentException.class, () -> engine.schedule(Double.NaN, e -> { }));
  }
}
