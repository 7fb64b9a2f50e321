package org.coalition.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.coalition.daemon.PilotLifecycle.Effect;
import org.coalition.daemon.PilotLifecycle.Event;
import org.coalition.daemon.PilotLifecycle.Phase;
import org.junit.jupiter.api.Test;

/** The pilot's transition table, written out by hand: every allowed (phase, event) and what it does; every other pair refused. */
class PilotLifecycleTest {
  private record Row(Phase from, Event event, Phase to, List<Effect> effects) {}

  private static final List<Row> TABLE = List.of(
      new Row(Phase.SUBMITTING, Event.SUBMITTED, Phase.PENDING, List.of()),
      new Row(Phase.SUBMITTING, Event.SUBMIT_FAILED, Phase.GONE, List.of(Effect.FORGET)),
      new Row(Phase.SUBMITTING, Event.ASKED, Phase.ASKED, List.of()),
      new Row(Phase.ASKED, Event.SUBMITTED, Phase.ASKED, List.of()),
      new Row(Phase.RUNNING, Event.SUBMITTED, Phase.RUNNING, List.of()),
      new Row(Phase.REPORTED, Event.SUBMITTED, Phase.REPORTED, List.of()),
      new Row(Phase.IDLE, Event.SUBMITTED, Phase.IDLE, List.of()),
      new Row(Phase.PENDING, Event.ASKED, Phase.ASKED, List.of()),
      new Row(Phase.PENDING, Event.PENDING_TOO_LONG, Phase.GONE, List.of(Effect.CANCEL_BATCH_JOB, Effect.FORGET, Effect.RECORD_PENDING_TOO_LONG)),
      new Row(Phase.PENDING, Event.BATCH_ENDED, Phase.GONE, List.of(Effect.FORGET)),
      new Row(Phase.PENDING, Event.BATCH_FAILED, Phase.GONE, List.of(Effect.FORGET, Effect.RECORD_DIED_BEFORE_ASKING)),
      new Row(Phase.ASKED, Event.CLAIMED, Phase.RUNNING, List.of()),
      new Row(Phase.ASKED, Event.NO_WORK, Phase.IDLE, List.of()),
      new Row(Phase.REPORTED, Event.ASKED, Phase.ASKED, List.of()),
      new Row(Phase.IDLE, Event.ASKED, Phase.ASKED, List.of()),
      new Row(Phase.ASKED, Event.BATCH_ENDED, Phase.GONE, List.of(Effect.FORGET, Effect.RELEASE_CLAIM)),
      new Row(Phase.ASKED, Event.BATCH_FAILED, Phase.GONE, List.of(Effect.FORGET, Effect.RELEASE_CLAIM)),
      new Row(Phase.RUNNING, Event.REPORTED, Phase.REPORTED, List.of()),
      new Row(Phase.RUNNING, Event.BATCH_ENDED, Phase.GONE, List.of(Effect.FORGET, Effect.RELEASE_CLAIM)),
      new Row(Phase.RUNNING, Event.BATCH_FAILED, Phase.GONE, List.of(Effect.FORGET, Effect.RELEASE_CLAIM)),
      new Row(Phase.REPORTED, Event.REPORTED, Phase.REPORTED, List.of()),
      new Row(Phase.GONE, Event.REPORTED, Phase.GONE, List.of()),
      new Row(Phase.REPORTED, Event.BATCH_ENDED, Phase.GONE, List.of(Effect.FORGET)),
      new Row(Phase.REPORTED, Event.BATCH_FAILED, Phase.GONE, List.of(Effect.FORGET)),
      new Row(Phase.IDLE, Event.BATCH_ENDED, Phase.GONE, List.of(Effect.FORGET)),
      new Row(Phase.IDLE, Event.BATCH_FAILED, Phase.GONE, List.of(Effect.FORGET)));

  @Test
  void everyAllowedEventMovesThePilotAsTheTableSays() {
    for (Row r : TABLE) {
      Transition<Phase, Effect> t = PilotLifecycle.on(r.from(), r.event()).orElseThrow(() -> new AssertionError(r + " refused"));
      assertEquals(r.to(), t.next(), r::toString);
      assertEquals(r.effects(), t.effects(), r::toString);
    }
  }

  @Test
  void everyOtherPairIsRefused() {
    List<String> allowedButNotInTheTable = new ArrayList<>();
    for (Phase from : Phase.values()) {
      for (Event event : Event.values()) {
        boolean listed = TABLE.stream().anyMatch(r -> r.from() == from && r.event() == event);
        Optional<Transition<Phase, Effect>> t = PilotLifecycle.on(from, event);
        if (!listed && t.isPresent()) {
          allowedButNotInTheTable.add(from + " + " + event);
        }
      }
    }
    assertEquals(List.of(), allowedButNotInTheTable);
    assertTrue(PilotLifecycle.on(Phase.GONE, Event.BATCH_ENDED).isEmpty(), "a forgotten pilot's batch job is not followed again");
    assertTrue(PilotLifecycle.on(Phase.RUNNING, Event.ASKED).isEmpty(), "a pilot holding a job asks for no other");
  }

  @Test
  void aPilotIsCountedAsTheApiReportsIt() {
    assertEquals("pending", PilotLifecycle.countedAs(Phase.SUBMITTING));
    assertEquals("pending", PilotLifecycle.countedAs(Phase.PENDING));
    assertEquals("running", PilotLifecycle.countedAs(Phase.RUNNING));
    for (Phase done : List.of(Phase.ASKED, Phase.REPORTED, Phase.IDLE)) {
      assertEquals("done", PilotLifecycle.countedAs(done), done::toString);
    }
  }
}
