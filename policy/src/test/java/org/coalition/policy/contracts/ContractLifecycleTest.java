package org.coalition.policy.contracts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.coalition.policy.contracts.Contract.Phase;
import org.coalition.policy.contracts.ContractLifecycle.Credit;
import org.coalition.policy.contracts.ContractLifecycle.Step;
import org.junit.jupiter.api.Test;

/** The contract's transition table as a (phase, event) -> (phase, credits) matrix. */
class ContractLifecycleTest {
  private static final ContractTerms TERMS = new ContractTerms("north", "south", 1_796_428_800L, "batch.cpu16x2", 6000, 5000);

  private static Contract acknowledged() {
    Step one = ContractLifecycle.acknowledge(Contract.cleared(TERMS), "north");
    return ContractLifecycle.acknowledge(one.contract(), "south").contract();
  }

  private static Contract open() {
    return ContractLifecycle.slotOpened(acknowledged(), "coalition-c1", true).contract();
  }

  @Test
  void bothSidesAcknowledgingPaysTheHoldingFeeOnce() {
    Step buyer = ContractLifecycle.acknowledge(Contract.cleared(TERMS), "north");
    assertEquals(Phase.CLEARED, buyer.contract().phase());
    assertEquals(List.of(), buyer.credits());
    Step again = ContractLifecycle.acknowledge(buyer.contract(), "north");
    assertEquals(Phase.CLEARED, again.contract().phase(), "the same side twice is still one side");
    Step seller = ContractLifecycle.acknowledge(buyer.contract(), "south");
    assertEquals(Phase.ACKNOWLEDGED, seller.contract().phase());
    assertEquals(List.of(new Credit("north", "south", 2500, "holding fee of " + TERMS.id())), seller.credits());
    Step late = ContractLifecycle.acknowledge(seller.contract(), "north");
    assertTrue(late.refused());
    assertEquals(List.of(), late.credits(), "no second fee");
  }

  @Test
  void aThirdSitesAcknowledgementIsRefusedAndChangesNothing() {
    Step step = ContractLifecycle.acknowledge(Contract.cleared(TERMS), "west");
    assertTrue(step.refused());
    assertEquals(Contract.cleared(TERMS), step.contract());
    assertEquals("refused: west acknowledged " + TERMS.id() + ", a contract between north and south", step.decision());
  }

  @Test
  void aSellerWhoseReservationFailsBreaksTheContractAndPays() {
    Step missing = ContractLifecycle.slotOpened(acknowledged(), null, false);
    assertEquals(Phase.BROKEN, missing.contract().phase());
    assertEquals(List.of(new Credit("south", "north", 2500, "holding fee of broken " + TERMS.id() + " returned"),
        new Credit("south", "north", 5000, "penalty for broken " + TERMS.id())), missing.credits());
    assertTrue(missing.decision().contains("no reservation at the slot's start"), missing.decision());
    Step notGiven = ContractLifecycle.slotOpened(acknowledged(), "coalition-c1", false);
    assertEquals(Phase.BROKEN, notGiven.contract().phase());
    assertTrue(notGiven.decision().contains("reservation coalition-c1 not given to the buyer"), notGiven.decision());
  }

  @Test
  void aBlockGivenOpensAndSettlesWithoutMoreCredit() {
    Step opened = ContractLifecycle.slotOpened(acknowledged(), "coalition-c1", true);
    assertEquals(Phase.OPEN, opened.contract().phase());
    assertEquals("coalition-c1", opened.contract().reservation());
    assertEquals(List.of(), opened.credits());
    Step ended = ContractLifecycle.slotEnded(opened.contract(), 86_400);
    assertEquals(Phase.SETTLED, ended.contract().phase());
    assertEquals(86_400, ended.contract().usedCoreSeconds());
    assertEquals(List.of(), ended.credits(), "runs are credited as every run is");
  }

  @Test
  void aContractNotAcknowledgedByBothLapsesWhenItsSlotOpens() {
    Step buyerOnly = ContractLifecycle.acknowledge(Contract.cleared(TERMS), "north");
    Step lapsed = ContractLifecycle.slotOpened(buyerOnly.contract(), "coalition-c1", true);
    assertEquals(Phase.LAPSED, lapsed.contract().phase());
    assertEquals(List.of(), lapsed.credits());
  }

  @Test
  void inTheLedgerTheBuyerPaysTheFeeWhenGivenTheBlockAndASellerWhoBreaksPaysThePrice() {
    assertEquals(Optional.of(new Credit("north", "south", 2500, "holding fee of " + TERMS.id())),
        ContractLifecycle.paidWith(TERMS, "north", Phase.OPEN));
    assertEquals(Optional.of(new Credit("south", "north", 5000, "penalty for broken " + TERMS.id())),
        ContractLifecycle.paidWith(TERMS, "south", Phase.BROKEN));
    for (Phase p : Phase.values()) {
      if (p != Phase.OPEN) {
        assertTrue(ContractLifecycle.paidWith(TERMS, "north", p).isEmpty(), "north's " + p);
      }
      if (p != Phase.BROKEN) {
        assertTrue(ContractLifecycle.paidWith(TERMS, "south", p).isEmpty(), "south's " + p);
      }
    }
    // a contract never given nets the same as the table's: fee paid, returned, price paid
    double table = ContractLifecycle.slotOpened(acknowledged(), null, false).credits().stream().mapToDouble(Credit::amount).sum()
        - ContractLifecycle.acknowledge(ContractLifecycle.acknowledge(Contract.cleared(TERMS), "north").contract(), "south")
            .credits().get(0).amount();
    assertEquals(table, ContractLifecycle.paidWith(TERMS, "south", Phase.BROKEN).orElseThrow().amount());
  }

  @Test
  void finalPhasesTakeNoEvent() {
    List<Contract> finals = List.of(ContractLifecycle.slotEnded(open(), 1).contract(),
        ContractLifecycle.slotOpened(acknowledged(), null, false).contract(),
        ContractLifecycle.slotOpened(Contract.cleared(TERMS), null, false).contract());
    for (Contract c : finals) {
      assertTrue(c.phase().isFinal(), c.phase().toString());
      for (Step s : List.of(ContractLifecycle.acknowledge(c, "north"), ContractLifecycle.slotOpened(c, "r", true),
          ContractLifecycle.slotEnded(c, 1))) {
        assertTrue(s.refused(), c.phase() + ": " + s.decision());
        assertEquals(c, s.contract());
        assertEquals(List.of(), s.credits());
      }
    }
    assertFalse(ContractLifecycle.slotEnded(acknowledged(), 1).contract().phase().isFinal(), "a slot cannot end before it opens");
  }
}
