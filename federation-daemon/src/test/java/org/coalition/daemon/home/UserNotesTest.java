package org.coalition.daemon.home;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.coalition.daemon.FakeBatch;
import org.coalition.handler.HandlerException;
import org.junit.jupiter.api.Test;

/** A user's note changes when the job's place does, and a note the batch system refused is given again. */
class UserNotesTest {
  private final FakeBatch batch = new FakeBatch(4);
  private final UserNotes notes = new UserNotes("home", Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC));

  @Test
  void aJobIsNotedOncePerPlace() {
    notes.queued(batch, "7");
    notes.seen(batch, "7", "");
    notes.seen(batch, "7", "south");
    notes.seen(batch, "7", "south");
    notes.seen(batch, "7", "");
    notes.seen(batch, "7", "west");
    notes.ran(batch, "7", "west", 42);
    assertEquals(List.of("in the federation's queue since 2026-01-01 00:00:00 UTC, held here meanwhile",
        "running at south since 2026-01-01 00:00:00 UTC, held here meanwhile",
        "back in the federation's queue since 2026-01-01 00:00:00 UTC, held here meanwhile",
        "running at west since 2026-01-01 00:00:00 UTC, held here meanwhile",
        "ran at west for 42 s, replayed here at 2026-01-01 00:00:00 UTC"), batch.notes.get("7"));
  }

  @Test
  void aRefusedNoteIsGivenAgainNextRound() {
    batch.noteFails = new HandlerException(HandlerException.Category.UNAVAILABLE, "slurmrestd is down");
    notes.seen(batch, "7", "south");
    assertNull(batch.notes.get("7"));
    batch.noteFails = null;
    notes.seen(batch, "7", "south");
    assertEquals(List.of("running at south since 2026-01-01 00:00:00 UTC, held here meanwhile"), batch.notes.get("7"));
  }

  @Test
  void aJobQueuedWhenTheDaemonStartedKeepsTheNoteItHas() {
    notes.seen(batch, "7", "");
    assertNull(batch.notes.get("7"), "its note from before the restart stands");
  }
}
