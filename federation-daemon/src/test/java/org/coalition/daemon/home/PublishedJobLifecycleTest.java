package org.coalition.daemon.home;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.coalition.daemon.base.Transition;
import org.coalition.daemon.home.PublishedJobLifecycle.Effect;
import org.coalition.daemon.home.PublishedJobLifecycle.Event;
import org.coalition.daemon.home.PublishedJobLifecycle.Phase;
import org.junit.jupiter.api.Test;

/** The published job's transition table, written out by hand; every other pair is refused. */
class PublishedJobLifecycleTest {
  private record Row(Phase from, Event event, Phase to, List<Effect> effects) {}

  private static final List<Row> TABLE = List.of(
      new Row(Phase.LOCAL, Event.READY, Phase.WAITING, List.of()),
      new Row(Phase.WAITING, Event.READY, Phase.WAITING, List.of()),
      new Row(Phase.HELD_BACK, Event.READY, Phase.HELD_BACK, List.of()),
      new Row(Phase.WAITING, Event.NOT_READY, Phase.LOCAL, List.of(Effect.FORGET)),
      new Row(Phase.HELD_BACK, Event.NOT_READY, Phase.LOCAL, List.of(Effect.FORGET)),
      new Row(Phase.KEPT, Event.NOT_READY, Phase.LOCAL, List.of(Effect.FORGET)),
      new Row(Phase.WAITING, Event.HELD_BACK, Phase.HELD_BACK, List.of()),
      new Row(Phase.HELD_BACK, Event.HELD_BACK, Phase.HELD_BACK, List.of()),
      new Row(Phase.WAITING, Event.CANNOT_GO, Phase.KEPT, List.of()),
      new Row(Phase.HELD_BACK, Event.CANNOT_GO, Phase.KEPT, List.of()),
      new Row(Phase.WAITING, Event.PARK, Phase.PARKING, List.of(Effect.PARK)),
      new Row(Phase.HELD_BACK, Event.PARK, Phase.PARKING, List.of(Effect.PARK)),
      new Row(Phase.PARKING, Event.PARK_FAILED, Phase.WAITING, List.of(Effect.FORGET_PARK)),
      new Row(Phase.PARKING, Event.PUBLISHED, Phase.PUBLISHED, List.of()),
      new Row(Phase.PARKING, Event.PUBLISH_FAILED, Phase.WAITING, List.of(Effect.UNPARK)),
      new Row(Phase.PUBLISHED, Event.SEEN, Phase.IN_FEDERATION, List.of()),
      new Row(Phase.IN_FEDERATION, Event.SEEN, Phase.IN_FEDERATION, List.of()),
      new Row(Phase.LOCAL, Event.FOUND_PUBLISHED, Phase.IN_FEDERATION, List.of()),
      new Row(Phase.LOCAL, Event.FOUND_PARKED, Phase.LOCAL, List.of(Effect.UNPARK)),
      new Row(Phase.WAITING, Event.FOUND_PARKED, Phase.WAITING, List.of(Effect.UNPARK)),
      new Row(Phase.HELD_BACK, Event.FOUND_PARKED, Phase.HELD_BACK, List.of(Effect.UNPARK)),
      new Row(Phase.LOCAL, Event.WITHDRAWN_FOR_ROOM, Phase.LOCAL, List.of(Effect.UNPARK, Effect.FORGET)),
      new Row(Phase.WAITING, Event.WITHDRAWN_FOR_ROOM, Phase.LOCAL, List.of(Effect.UNPARK, Effect.FORGET)),
      new Row(Phase.HELD_BACK, Event.WITHDRAWN_FOR_ROOM, Phase.LOCAL, List.of(Effect.UNPARK, Effect.FORGET)),
      new Row(Phase.PUBLISHED, Event.WITHDRAWN_FOR_ROOM, Phase.LOCAL, List.of(Effect.UNPARK, Effect.FORGET)),
      new Row(Phase.IN_FEDERATION, Event.WITHDRAWN_FOR_ROOM, Phase.LOCAL, List.of(Effect.UNPARK, Effect.FORGET)),
      new Row(Phase.PUBLISHED, Event.WITHDRAWN_GONE, Phase.DONE, List.of(Effect.FORGET)),
      new Row(Phase.IN_FEDERATION, Event.WITHDRAWN_GONE, Phase.DONE, List.of(Effect.FORGET)),
      new Row(Phase.IN_FEDERATION, Event.LEFT_FEDERATION, Phase.DONE, List.of(Effect.FORGET)),
      new Row(Phase.LOCAL, Event.RESULT_HANDLED, Phase.DONE, List.of(Effect.FORGET, Effect.REMEMBER_RESULT)),
      new Row(Phase.WAITING, Event.RESULT_HANDLED, Phase.DONE, List.of(Effect.FORGET, Effect.REMEMBER_RESULT)),
      new Row(Phase.HELD_BACK, Event.RESULT_HANDLED, Phase.DONE, List.of(Effect.FORGET, Effect.REMEMBER_RESULT)),
      new Row(Phase.PUBLISHED, Event.RESULT_HANDLED, Phase.DONE, List.of(Effect.FORGET, Effect.REMEMBER_RESULT)),
      new Row(Phase.IN_FEDERATION, Event.RESULT_HANDLED, Phase.DONE, List.of(Effect.FORGET, Effect.REMEMBER_RESULT)));

  @Test
  void everyAllowedEventMovesTheJobAsTheTableSays() {
    for (Row r : TABLE) {
      Transition<Phase, Effect> t = PublishedJobLifecycle.on(r.from(), r.event()).orElseThrow(() -> new AssertionError(r + " refused"));
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
        if (!listed && PublishedJobLifecycle.on(from, event).isPresent()) {
          allowedButNotInTheTable.add(from + " + " + event);
        }
      }
    }
    assertEquals(List.of(), allowedButNotInTheTable, "a published job is never published twice, a done job never moves again");
    assertTrue(PublishedJobLifecycle.on(Phase.PUBLISHED, Event.LEFT_FEDERATION).isEmpty(),
        "a job the federation's cache has not shown yet has not left it: it was published a moment ago");
    assertTrue(PublishedJobLifecycle.on(Phase.KEPT, Event.PARK).isEmpty(), "a job whose files cannot go is never parked");
  }
}
