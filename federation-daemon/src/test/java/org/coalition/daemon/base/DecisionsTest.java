package org.coalition.daemon.base;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class DecisionsTest {
  @Test
  void theLatestDecisionsAreKeptNewestFirstAndNoMore() {
    Decisions d = new Decisions("north");
    for (int i = 0; i < Decisions.KEPT + 50; i++) {
      d.record("publish", "job=north/" + i, "no-local-room", "needs 4 cores");
    }
    List<Decisions.Decision> recent = d.recent();
    assertEquals(Decisions.KEPT, recent.size());
    assertEquals("job=north/" + (Decisions.KEPT + 49), recent.get(0).subject(), "newest first");
    assertEquals("job=north/50", recent.get(Decisions.KEPT - 1).subject(), "the oldest kept");
    assertEquals(Decisions.KEPT + 50L, d.counts().get("publish no-local-room"), "every decision counted");
  }
}
