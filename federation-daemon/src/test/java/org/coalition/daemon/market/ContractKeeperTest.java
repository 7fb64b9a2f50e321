package org.coalition.daemon.market;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.coalition.coordination.Credit;
import org.coalition.coordination.JobRef;
import org.coalition.coordination.JobSpec;
import org.coalition.coordination.UtilitySums;
import org.coalition.daemon.base.BoughtSlots;
import org.coalition.daemon.base.SoldSlots;
import org.coalition.policy.contracts.Contract.Phase;
import org.coalition.policy.contracts.ContractTerms;
import org.coalition.policy.contracts.SealedBid.Side;
import org.junit.jupiter.api.Test;

/**
 * The desk's contracts from their slot's start to its end ({@link ContractKeeper}) on the in-memory
 * twin: escrow handed over and settled, a reservation gone, a contract lapsed, and the buyer's
 * fee paid on what its own jobs show ({@link BlockService}).
 */
class ContractKeeperTest extends MarketFixture {
  /**
   * South holds its block in escrow before it bids, east's dearer sale loses and its escrow is
   * released; at the slot's start south hands its reservation to north's pool account and notes
   * the contract open, north once south has claimed a job of its; at the end both note it settled
   * and south's reservation is released.
   */
  @Test
  void aSoldSlotIsHeldInEscrowHandedToTheBuyersPoolAndSettledByBoth() {
    Site north = site("north");
    Site south = site("south");
    Site east = site("east");
    MarketDesk buyer = buyer(north, false);
    MarketDesk seller = seller(south);
    MarketDesk dear = desk(east, new MarketOffer(Side.SELL, TYPE, Set.of(1), 1, 0), false, 30_000);
    List<MarketDesk> desks = List.of(seller, dear, buyer);
    String name = "coalition_" + oneAm + "_batch_cpu8x1";
    desks.forEach(MarketDesk::step);
    assertEquals(List.of("hold " + name + " batch 1x8"), south.escrow().calls, "held in escrow before the bid, once");
    clock.advance(Duration.ofMinutes(7));
    desks.forEach(MarketDesk::step);
    clock.advance(Duration.ofMinutes(30));
    desks.forEach(MarketDesk::step);
    assertEquals(List.of("hold " + name + " batch 1x8", "release " + name), east.escrow().calls, "east lost: its block given back");
    assertEquals(List.of("coalition"), south.escrow().held.get(name).admits(), "held for the site itself until the slot");
    String id = contract(north);

    at(Instant.ofEpochSecond(oneAm).plusSeconds(20), desks);
    assertEquals(List.of("pool-north"), south.escrow().held.get(name).admits(), "handed to the buyer's pool account");
    assertEquals(Phase.OPEN, phase(south, id));
    assertEquals(Phase.ACKNOWLEDGED, phase(north, id), "the seller's word alone pays no fee: nothing of north's is claimed yet");
    publish(north, "7", 4, 600);
    assertTrue(south.coordination().claim(new JobRef("north", "7")).isPresent());
    desks.forEach(MarketDesk::step);
    assertEquals(Phase.OPEN, phase(north, id), "the buyer saw the seller take its job");
    assertEquals(name, north.coordination().market().read(DAY).notes().get(id).get("north").reservation());
    assertEquals(1, count(south, "market-contract opened"), "opened once");
    assertEquals(List.of(new SoldSlots.Slot("north", name, 8, Instant.ofEpochSecond(oneAm).plus(CALENDAR.slot()))), south.sold().open(),
        "the executor side is told of the open slot");
    assertEquals(List.of(), north.sold().open(), "the buyer sold nothing");
    assertEquals(List.of(new BoughtSlots.Slot("south", 8, Instant.ofEpochSecond(oneAm).plus(CALENDAR.slot()))), north.bought().open(),
        "the home side is told of the slot it bought, to publish into it beyond its send allowance");
    assertEquals(List.of(), south.bought().open(), "the seller bought nothing");

    at(Instant.ofEpochSecond(oneAm).plus(CALENDAR.slot()).plusSeconds(20), desks);
    assertEquals(Phase.SETTLED, phase(south, id));
    assertEquals(Phase.SETTLED, phase(north, id));
    assertFalse(south.escrow().held.containsKey(name), "released at the slot's end");
    assertEquals(List.of(), south.sold().open(), "no slot open after its end");
    assertEquals(List.of(), north.bought().open(), "nor bought");
    ContractTerms t = terms(north);
    assertEquals(Map.of("south", new Credit(UtilitySums.paid(0.5 * t.sellPrice(), oneAm), 1)), paid(north),
        "north paid south the holding fee, half its price, once");
    assertEquals(Map.of(), paid(south), "a seller who gave the block pays nothing");
  }

  /** Publishes a job of {@code cores} cores and {@code seconds} of time limit from {@code home}, now. */
  private static void publish(Site home, String id, int cores, long seconds) {
    home.coordination().publish(JobSpec.builder(id, home.coordination().site()).cores(cores).walltimeSeconds(seconds)
        .release(home.coordination().now()).build());
  }

  /** North buys south's block of the 01:00 slot; 20 s into it south has opened it. */
  private record Opened(Site north, Site south, List<MarketDesk> desks, String id) {}

  private Opened opened() {
    Site north = site("north");
    Site south = site("south");
    List<MarketDesk> desks = List.of(seller(south), buyer(north, false));
    trade(desks);
    at(Instant.ofEpochSecond(oneAm).plusSeconds(20), desks);
    return new Opened(north, south, desks, contract(north));
  }

  /**
   * A seller that notes the slot open and gives nothing (no pilot, or a reservation the buyer's
   * pool cannot use): north's job that fits the block waits unclaimed for the grace (ten minutes
   * in a slot of an hour), and north notes the contract broken, stops publishing into it and pays no fee;
   * south's own notes say open and settled, for every member to see beside north's.
   */
  @Test
  void aSellerThatOpensTheSlotAndTakesNothingIsNotPaid() {
    Opened o = opened();
    Site north = o.north();
    Site south = o.south();
    String id = o.id();
    Instant slot = Instant.ofEpochSecond(oneAm);
    assertEquals(Phase.OPEN, phase(south, id));
    publish(north, "8", 4, 600);
    publish(north, "9", 16, 600); // more than the block holds: no evidence against south
    at(slot.plus(BlockService.grace(CALENDAR.slot())), o.desks());
    assertEquals(Phase.ACKNOWLEDGED, phase(north, id), "the job has waited less than the grace since it was published");
    assertEquals(1, north.bought().open().size(), "the slot is still north's to publish into");
    at(slot.plusSeconds(20).plus(BlockService.grace(CALENDAR.slot())), o.desks());
    assertEquals(Phase.BROKEN, phase(north, id), "job 8 waited the grace unclaimed");
    assertEquals(1, count(north, "market-contract unserved"), north.decisions().counts().toString());
    assertEquals(List.of(), north.bought().open(), "a slot its seller does not serve is no capacity to publish into");
    at(slot.plus(CALENDAR.slot()).plusSeconds(20), o.desks());
    assertEquals(Phase.SETTLED, phase(south, id), "south's own word");
    assertEquals(Phase.BROKEN, phase(north, id));
    assertEquals(Map.of(), paid(north), "no holding fee for a block never served");
  }

  /** A job the seller ran and gave back between two of the desk's steps is service all the same: the home side said when it started. */
  @Test
  void aRunTakenHomeBetweenTwoStepsIsService() {
    Opened o = opened();
    Site north = o.north();
    publish(north, "11", 4, 600);
    north.bought().ran("south", north.coordination().now()); // claimed, run and replayed at home before the next step
    assertTrue(north.coordination().withdraw("11"), "gone from the federation's records, as a job taken home is");
    at(Instant.ofEpochSecond(oneAm).plusSeconds(50), o.desks());
    assertEquals(Phase.OPEN, phase(north, o.id()), "the fee paid on the run north took home");
  }

  /** A buyer none of whose jobs waited for the block pays the fee at the slot's end: reserved time is what it bought. */
  @Test
  void aBuyerThatNeededNothingOfTheSlotPaysTheFeeAtItsEnd() {
    Opened o = opened();
    Site north = o.north();
    String id = o.id();
    Instant slot = Instant.ofEpochSecond(oneAm);
    publish(north, "10", 4, 3600); // ends after the slot: not the block's to take
    at(slot.plus(CALENDAR.slot()).minusSeconds(30), o.desks());
    assertEquals(Phase.ACKNOWLEDGED, phase(north, id));
    at(slot.plus(CALENDAR.slot()).plusSeconds(20), o.desks());
    assertEquals(Phase.SETTLED, phase(north, id));
    assertEquals(1, count(north, "market-contract opened"), "noted open, the fee's note, before settled");
    assertEquals(Map.of("south", new Credit(UtilitySums.paid(0.5 * terms(north).sellPrice(), oneAm), 1)), paid(north));
  }

  /** A seller whose reservation is gone when the slot opens breaks the contract; the buyer, never given the slot, says so at its end. */
  @Test
  void aSellerWhoseReservationIsGoneAtTheSlotBreaksTheContract() {
    Site north = site("north");
    Site south = site("south");
    MarketDesk buyer = buyer(north, false);
    MarketDesk seller = seller(south);
    List<MarketDesk> desks = List.of(seller, buyer);
    trade(desks);
    String id = contract(north);
    south.escrow().held.clear(); // an admin removed it, or the batch system lost it

    at(Instant.ofEpochSecond(oneAm).plusSeconds(20), desks);
    assertEquals(Phase.BROKEN, phase(south, id));
    assertEquals(Phase.ACKNOWLEDGED, phase(north, id), "the buyer waits for the slot's end");
    desks.forEach(MarketDesk::step);
    assertEquals(List.of(), north.bought().open(), "a slot its seller broke is no capacity to publish into");
    at(Instant.ofEpochSecond(oneAm).plus(CALENDAR.slot()).plusSeconds(20), desks);
    assertEquals(Phase.BROKEN, phase(north, id));
    assertTrue(south.decisions().counts().containsKey("market-contract broken"), south.decisions().counts().toString());
    assertEquals(Map.of("north", new Credit(UtilitySums.paid(terms(north).sellPrice(), oneAm), 1)), paid(south),
        "south pays north the price of the contract it broke");
    assertEquals(Map.of(), paid(north), "a buyer never given the block pays no fee");
  }

  /** A contract the buyer's admin never approved lapses when its slot opens: both say so, and the seller's escrow is released. */
  @Test
  void aContractNotAcknowledgedByBothLapsesAndItsEscrowIsReleased() {
    Site south = site("south");
    Site west = site("west");
    MarketDesk seller = seller(south);
    MarketDesk buyer = buyer(west, true);
    List<MarketDesk> desks = List.of(seller, buyer);
    trade(desks);
    String id = contract(west);
    at(Instant.ofEpochSecond(oneAm), desks);
    assertEquals(Phase.LAPSED, phase(south, id));
    assertEquals(Phase.LAPSED, phase(west, id));
    assertTrue(south.escrow().held.isEmpty(), "the block given back to south's users");
    assertEquals(Map.of(), paid(west), "a lapsed contract pays nothing");
    assertEquals(Map.of(), paid(south));
  }
}
