package org.coalition.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.coalition.daemon.PublishedJobLifecycle.Effect;
import org.coalition.daemon.PublishedJobLifecycle.Event;
import org.coalition.daemon.PublishedJobLifecycle.Phase;
import org.junit.jupiter.api.Test;

/** The published job's transition table, written out by hand; every other pair is refused. */
class PublishedJobLifecycleTest {
  private record Row(Phase from, Event event, Phase to, List<Effect> effects) {}

  private static final List<Row> TABLE = List.of(
      new Row(Phase.LOCAL, Event.PUBLISHED, Phase.PUBLISHED, List.of(Effect.TRACK)),
      new Row(Phase.LOCAL, Event.FOUND_PUBLISHED, Phase.PUBLISHED, List.of(Effect.TRACK)),
      new Row(Phase.LOCAL, Event.PUBLISH_FAILED, Phase.LOCAL, List.of(Effect.UNPARK)),
      new Row(Phase.LOCAL, Event.FOUND_PARKED, Phase.LOCAL, List.of(Effect.UNPARK)),
      new Row(Phase.LOCAL, Event.WITHDRAWN_FOR_ROOM, Phase.LOCAL, List.of(Effect.UNPARK, Effect.FORGET)),
      new Row(Phase.LOCAL, Event.RESULT_HANDLED, Phase.DONE, List.of(Effect.FORGET, Effect.REMEMBER_RESULT)),
      new Row(Phase.PUBLISHED, Event.FOUND_PUBLISHED, Phase.PUBLISHED, List.of(Effect.TRACK)),
      new Row(Phase.PUBLISHED, Event.WITHDRAWN_FOR_ROOM, Phase.LOCAL, List.of(Effect.UNPARK, Effect.FORGET)),
      new Row(Phase.PUBLISHED, Event.WITHDRAWN_GONE, Phase.DONE, List.of(Effect.FORGET)),
      new Row(Phase.PUBLISHED, Event.LEFT_FEDERATION, Phase.DONE, List.of(Effect.FORGET)),
      new Row(Phase.PUBLISHED, Event.RESULT_HANDLED, Phase.DONE, List.of(Effect.FORGET, Effect.REMEMBER_RESULT)));

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
  }
}
