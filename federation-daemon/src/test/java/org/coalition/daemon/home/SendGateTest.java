package org.coalition.daemon.home;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
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
    assertEquals(2L, decisions.counts().get("publish bought-slot"), decisions.counts().toString());
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
