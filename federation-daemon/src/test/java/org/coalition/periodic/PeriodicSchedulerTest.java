package org.coalition.periodic;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import org.junit.jupiter.api.Test;

/** Where {@link PeriodicScheduler#every} puts a task's runs: on its interval's grid from the epoch, a little after. */
class PeriodicSchedulerTest {
  private static final long HALF_MINUTE = 30_000;

  @Test
  void aHalfMinuteTaskRunsJustAfterTheNextHalfMinuteOfTheClock() {
    long now = Instant.parse("2026-12-04T00:07:12.345Z").toEpochMilli();
    assertEquals(Instant.parse("2026-12-04T00:07:30.200Z").toEpochMilli(), PeriodicScheduler.onTheGrid(now, HALF_MINUTE));
  }

  @Test
  void aTaskStartedOnTheGridRunsFirstAtTheNextPointOfIt() {
    long now = Instant.parse("2026-12-04T00:09:00Z").toEpochMilli();
    assertEquals(Instant.parse("2026-12-04T00:09:30.200Z").toEpochMilli(), PeriodicScheduler.onTheGrid(now, HALF_MINUTE),
        "a run at the start and another a moment later would step the desk twice in the same phase for nothing");
  }
}
