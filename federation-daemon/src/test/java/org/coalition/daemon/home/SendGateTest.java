package org.coalition.daemon.home;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.coalition.coordination.Allowances;
import org.coalition.coordination.FederatedJob;
import org.coalition.coordination.JobSpec;
import org.coalition.daemon.base.BoughtSlots;
import org.coalition.daemon.base.Decisions;
import org.coalition.daemon.base.PeriodBudget;
import org.junit.jupiter.api.Test;

/** {@link SendGate}: a bought block's cores go beyond the send allowance, as many at once as it holds, for jobs that end in its slot. */
class SendGateTest {
  private static final Instant NOW = Instant.parse("2026-12-04T01:00:10Z");
  private final Decisions decisions = new Decisions("north");
  private final BoughtSlots bought = new BoughtSlots();
  /** No allowance entered: nothing may be sent best effort. */
  private final SendGate gate = new SendGate(new PeriodBudget("north"), bought, decisions, Clock.fixed(NOW, ZoneOffset.UTC));

  @Test
  void withoutABoughtSlotAJobWaitsForTheAllowanceAndSaysSoOnce() {
    SendGate.Round round = gate.round(List.of());
    assertFalse(round.lets("north/1", 4, 60, true));
    assertFalse(round.lets("north/1", 4, 60, false));
    assertEquals(1L, decisions.counts().get("keep send-allowance"), decisions.counts().toString());
  }

  @Test
  void anOpenBoughtBlockTakesJobsUpToItsCoresAndOnlyThoseThatEndInItsSlot() {
    bought.set(List.of(new BoughtSlots.Slot("south", 8, NOW.plusSeconds(140))));
    SendGate.Round round = gate.round(List.of());
    assertFalse(round.lets("north/1", 4, 120, false), "120 s and the seller's 60 s margin end after the slot");
    assertTrue(round.lets("north/2", 4, 60, false));
    assertTrue(round.lets("north/3", 4, 60, false));
    assertFalse(round.lets("north/4", 1, 60, false), "the block's 8 cores are taken");
    assertEquals("bought-slot", round.why("north/2").reason(), "its publish line says it went into the bought block");
    assertTrue(round.why("north/2").detail().contains("from south"), round.why("north/2").detail());
  }

  @Test
  void aJobWithoutATimeLimitNeverGoesIntoABoughtBlock() {
    bought.set(List.of(new BoughtSlots.Slot("south", 8, NOW.plusSeconds(3600))));
    assertFalse(gate.round(List.of()).lets("north/1", 1, 0, false), "nothing says a job without a time limit ends in the slot");
  }

  @Test
  void aJobThatDoesNotGoGivesBackWhatItTookFromTheAllowanceOrTheBlock() {
    PeriodBudget budget = new PeriodBudget("north");
    budget.enter(new Allowances("north", 1, 0, Map.of("north", new Allowances.Allowance(100, 0))));
    bought.set(List.of(new BoughtSlots.Slot("south", 4, NOW.plusSeconds(140))));
    SendGate.Round round = new SendGate(budget, bought, decisions, Clock.fixed(NOW, ZoneOffset.UTC)).round(List.of());
    assertTrue(round.lets("north/1", 4, 60, false), "into the bought block");
    assertTrue(round.lets("north/2", 2, 60, false), "within the allowance (0 of 100 core-seconds sent yet)");
    assertEquals(120, budget.sent(), 1e-9);
    assertEquals("no-local-room", round.why("north/2").reason());
    assertFalse(round.lets("north/3", 4, 60, false), "the block's 4 cores are taken, and the allowance is used up (120 of 100)");
    round.notSent("north/1");
    assertEquals(120, budget.sent(), 1e-9, "the bought block's job took nothing from the allowance, and gives nothing back");
    assertTrue(round.lets("north/3", 4, 60, false), "the block's cores it held are free again");
    round.notSent("north/2");
    assertEquals(0, budget.sent(), 1e-9, "the allowance's job gives back what it took");
    round.notSent("north/2");
    assertEquals(0, budget.sent(), 1e-9, "and only once");
  }

  @Test
  void jobsAlreadyInTheFederationCountAgainstTheBlock() {
    bought.set(List.of(new BoughtSlots.Slot("south", 8, NOW.plusSeconds(140))));
    JobSpec running = JobSpec.builder("9", "north").cores(6).walltimeSeconds(60).inputs(null).environment(null).layout(null).build();
    SendGate.Round round = gate.round(List.of(new FederatedJob(running, "south", false)));
    assertFalse(round.lets("north/2", 4, 60, false), "6 of the 8 cores are in the federation already");
    assertTrue(round.lets("north/3", 2, 60, false));
  }
}
