package org.coalition.daemon.executor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.coalition.daemon.base.Transition;
import org.coalition.daemon.executor.PilotLifecycle.Effect;
import org.coalition.daemon.executor.PilotLifecycle.Event;
import org.coalition.daemon.executor.PilotLifecycle.Phase;
import org.junit.jupiter.api.Test;

/** The pilot's transition table, written out by hand: every allowed (phase, event) and what it does; every other pair refused. */
class PilotLifecycleTest {
  private record Row(Phase from, Event event, Phase to, List<Effect> effects) {}

  private static final List<Row> TABLE = List.of(
      new Row(Phase.SUBMITTING, Event.SUBMITTED, Phase.PENDING, List.of()),
      new Row(Phase.SUBMITTING, Event.SUBMIT_FAILED, Phase.GONE, List.of(Effect.FORGET)),
      new Row(Phase.SUBMITTING, Event.ASKED, Phase.ASKED, List.of()),
      new Row(Phase.ASKED, Event.SUBMITTED, Phase.ASKED, List.of()),
      new Row(Phase.HANDED, Event.SUBMITTED, Phase.HANDED, List.of()),
      new Row(Phase.RUNNING, Event.SUBMITTED, Phase.RUNNING, List.of()),
      new Row(Phase.EVICTING, Event.SUBMITTED, Phase.EVICTING, List.of()),
      new Row(Phase.REPORTED, Event.SUBMITTED, Phase.REPORTED, List.of()),
      new Row(Phase.IDLE, Event.SUBMITTED, Phase.IDLE, List.of()),
      new Row(Phase.PENDING, Event.ASKED, Phase.ASKED, List.of()),
      new Row(Phase.PENDING, Event.PENDING_TOO_LONG, Phase.GONE, List.of(Effect.CANCEL_BATCH_JOB, Effect.FORGET, Effect.RECORD_PENDING_TOO_LONG)),
      new Row(Phase.PENDING, Event.BATCH_ENDED, Phase.GONE, List.of(Effect.FORGET)),
      new Row(Phase.PENDING, Event.BATCH_FAILED, Phase.GONE, List.of(Effect.FORGET, Effect.RECORD_DIED_BEFORE_ASKING)),
      new Row(Phase.ASKED, Event.CLAIMED, Phase.HANDED, List.of()),
      new Row(Phase.ASKED, Event.NO_WORK, Phase.IDLE, List.of()),
      new Row(Phase.HANDED, Event.CONFIRMED, Phase.RUNNING, List.of()),
      new Row(Phase.REPORTED, Event.ASKED, Phase.ASKED, List.of()),
      new Row(Phase.IDLE, Event.ASKED, Phase.ASKED, List.of()),
      new Row(Phase.HANDED, Event.REPORTED, Phase.REPORTED, List.of()),
      new Row(Phase.RUNNING, Event.REPORTED, Phase.REPORTED, List.of()),
      new Row(Phase.RUNNING, Event.EVICTED, Phase.EVICTING, List.of()),
      new Row(Phase.HANDED, Event.EVICTED, Phase.EVICTING, List.of()),
      new Row(Phase.EVICTING, Event.EVICT_FAILED, Phase.RUNNING, List.of()),
      new Row(Phase.ADOPTING, Event.ADOPTED, Phase.RUNNING, List.of()),
      new Row(Phase.ADOPTING_HANDED, Event.ADOPTED, Phase.HANDED, List.of()),
      new Row(Phase.ADOPTING, Event.FOUND_REPORTED, Phase.REPORTED, List.of()),
      new Row(Phase.ADOPTING_HANDED, Event.FOUND_REPORTED, Phase.REPORTED, List.of()),
      new Row(Phase.REPORTED, Event.REPORTED, Phase.REPORTED, List.of()),
      new Row(Phase.GONE, Event.REPORTED, Phase.GONE, List.of()),
      new Row(Phase.ASKED, Event.BATCH_ENDED, Phase.GONE, List.of(Effect.FORGET, Effect.RELEASE_CLAIM)),
      new Row(Phase.ASKED, Event.BATCH_FAILED, Phase.GONE, List.of(Effect.FORGET, Effect.RELEASE_CLAIM)),
      new Row(Phase.RUNNING, Event.BATCH_ENDED, Phase.GONE, List.of(Effect.FORGET, Effect.RELEASE_CLAIM)),
      new Row(Phase.RUNNING, Event.BATCH_FAILED, Phase.GONE, List.of(Effect.FORGET, Effect.RELEASE_CLAIM)),
      new Row(Phase.ADOPTING, Event.BATCH_ENDED, Phase.GONE, List.of(Effect.FORGET, Effect.RELEASE_CLAIM)),
      new Row(Phase.ADOPTING, Event.BATCH_FAILED, Phase.GONE, List.of(Effect.FORGET, Effect.RELEASE_CLAIM)),
      new Row(Phase.HANDED, Event.BATCH_ENDED, Phase.GONE, List.of(Effect.FORGET, Effect.RELEASE_NEVER_CONFIRMED)),
      new Row(Phase.HANDED, Event.BATCH_FAILED, Phase.GONE, List.of(Effect.FORGET, Effect.RELEASE_NEVER_CONFIRMED)),
      new Row(Phase.ADOPTING_HANDED, Event.BATCH_ENDED, Phase.GONE, List.of(Effect.FORGET, Effect.RELEASE_NEVER_CONFIRMED)),
      new Row(Phase.ADOPTING_HANDED, Event.BATCH_FAILED, Phase.GONE, List.of(Effect.FORGET, Effect.RELEASE_NEVER_CONFIRMED)),
      new Row(Phase.EVICTING, Event.BATCH_ENDED, Phase.GONE, List.of(Effect.FORGET, Effect.RELEASE_EVICTED)),
      new Row(Phase.EVICTING, Event.BATCH_FAILED, Phase.GONE, List.of(Effect.FORGET, Effect.RELEASE_EVICTED)),
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
    assertTrue(PilotLifecycle.on(Phase.EVICTING, Event.REPORTED).isEmpty(), "an evicted run hands in no result");
    assertTrue(PilotLifecycle.on(Phase.ADOPTING, Event.REPORTED).isEmpty(), "a run is reported only once its claim is this daemon's again");
    assertTrue(PilotLifecycle.on(Phase.ADOPTING, Event.EVICTED).isEmpty(), "a run is evicted only once its claim is this daemon's again");
  }

  @Test
  void aPilotIsCountedAsTheApiReportsIt() {
    assertEquals("pending", PilotLifecycle.countedAs(Phase.SUBMITTING));
    assertEquals("pending", PilotLifecycle.countedAs(Phase.PENDING));
    for (Phase holding : List.of(Phase.HANDED, Phase.RUNNING, Phase.EVICTING, Phase.ADOPTING, Phase.ADOPTING_HANDED)) {
      assertEquals("running", PilotLifecycle.countedAs(holding), holding::toString);
    }
    for (Phase done : List.of(Phase.ASKED, Phase.REPORTED, Phase.IDLE)) {
      assertEquals("done", PilotLifecycle.countedAs(done), done::toString);
    }
  }

  @Test
  void theJournalIsWrittenOnlyThePhasesTheReleaseBeforeReads() {
    List<Phase> firstVersion = List.of(Phase.SUBMITTING, Phase.PENDING, Phase.ASKED, Phase.RUNNING, Phase.REPORTED, Phase.IDLE, Phase.GONE);
    for (Phase p : Phase.values()) {
      assertTrue(firstVersion.contains(PilotLifecycle.journaled(p)), p + " is journaled as " + PilotLifecycle.journaled(p));
    }
    assertEquals(List.of(Phase.RUNNING, Phase.EVICTING, Phase.ADOPTING),
        List.of(Phase.values()).stream().filter(PilotLifecycle::confirmed).toList(), "the phases journaled as confirmed");
  }

  @Test
  void aRestoredPilotWithAClaimWaitsForItsAdoptionAndKeepsWhetherItHadConfirmed() {
    assertEquals(Phase.ADOPTING, PilotLifecycle.restored(Phase.RUNNING, true, false, true));
    assertEquals(Phase.ADOPTING_HANDED, PilotLifecycle.restored(Phase.RUNNING, true, false, false), "a hand-off not yet confirmed");
    assertEquals(Phase.ADOPTING, PilotLifecycle.restored(Phase.RUNNING, true, false, null), "a record older than confirmed: it had its job");
    assertEquals(Phase.ADOPTING, PilotLifecycle.restored(Phase.ASKED, true, false, null), "a claim journaled before its CLAIMED");
    assertEquals(Phase.ADOPTING_HANDED, PilotLifecycle.restored(Phase.HANDED, true, false, true), "a journal of a later release");
    assertEquals(Phase.REPORTED, PilotLifecycle.restored(Phase.REPORTED, true, true, true), "a reported run needs no claim");
    assertEquals(Phase.RUNNING, PilotLifecycle.restored(Phase.RUNNING, true, true, true), "reported, its phase not yet journaled");
    assertEquals(Phase.PENDING, PilotLifecycle.restored(Phase.PENDING, false, false, null));
    assertEquals(Phase.ASKED, PilotLifecycle.restored(Phase.ASKED, false, false, null));
  }
}
