package org.coalition.coordination;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.coalition.policy.fairness.Utility;
import org.junit.jupiter.api.Test;

class LedgersTest {
  private static final UtilitySums HOUR = UtilitySums.of(0, RunResult.builder(0, 3600).build(), 1);

  @Test
  void contributionIsWhatTheHomesCreditedAndUtilityWhatEachHomeAccepted() {
    LedgerRow north = LedgerRow.empty("north").accepted("south", HOUR).accepted("south", HOUR).accepted("north", HOUR);
    LedgerRow south = LedgerRow.empty("south").accepted("west", HOUR);
    Map<String, SiteLedger> l = Ledgers.of(List.of(north, south, LedgerRow.empty("west")), Set.of("north", "south", "west"));
    assertEquals(2, l.get("south").jobsExecuted());
    assertEquals(1, l.get("south").jobsSubmitted());
    assertEquals(3, l.get("north").jobsSubmitted());
    assertEquals(1, l.get("north").jobsExecuted(), "a home's own run counts on both sides");
    assertEquals(2 * 3600 - 3600, l.get("south").priority(Utility.SIMPL, 0), 1e-9);
    assertEquals(0, l.values().stream().mapToDouble(s -> s.priority(Utility.SIMPL, 1e6)).sum(), 1e-6, "priorities sum to zero");
  }

  @Test
  void aMemberCanOnlyGiveItsPriorityAwayNeverRaiseItOrCreditStrangers() {
    LedgerRow honest = LedgerRow.empty("north").accepted("mallory", HOUR);
    LedgerRow mallory = LedgerRow.empty("mallory").accepted("ghost", HOUR).accepted("friend", HOUR);
    Map<String, SiteLedger> l = Ledgers.of(List.of(honest, mallory, LedgerRow.empty("ghost-home")), Set.of("north", "mallory", "friend"));
    assertEquals(3600, l.get("mallory").contribution().get(Utility.SIMPL).at(0), 1e-9, "its contribution is north's credit alone");
    assertEquals(0, l.get("mallory").priority(Utility.SIMPL, 0), 1e-9, "what it credited its friend counts as its own use");
    assertEquals(3600, l.get("friend").priority(Utility.SIMPL, 0), 1e-9);
    assertEquals(1, l.get("mallory").jobsSubmitted(), "the credit to a non-member is not counted");
    assertEquals(Set.of("north", "mallory", "friend"), l.keySet());
  }

  @Test
  void aContractsPaymentRaisesItsPayeeAndLowersItsPayerWithoutCountingAsARun() {
    double slot = 1_796_428_800;
    LedgerRow north = LedgerRow.empty("north").accepted("south", HOUR).paid("south", UtilitySums.paid(2500, slot));
    Map<String, SiteLedger> l = Ledgers.of(List.of(north, LedgerRow.empty("south")), Set.of("north", "south"));
    assertEquals(3600 + 2500, l.get("south").priority(Utility.SIMPL, slot), 1e-9);
    assertEquals(-(3600 + 2500), l.get("north").priority(Utility.SIMPL, slot), 1e-9);
    assertEquals(1, l.get("south").jobsExecuted(), "a payment is no run");
    assertEquals(1, l.get("north").jobsSubmitted());
    for (Utility u : Utility.values()) {
      assertEquals(0, l.values().stream().mapToDouble(s -> s.priority(u, slot + 1e5)).sum(), 1e-3, u + ": priorities sum to zero");
    }
    assertEquals(2500 * 1e5, UtilitySums.paid(2500, slot).orig().at(slot + 1e5), 1e-3, "ORIG grows as a run of that work would");
  }
}
