package org.coalition.daemon.market;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.coalition.coordination.Credit;
import org.coalition.coordination.LedgerRow;
import org.coalition.coordination.MarketDay;
import org.coalition.coordination.MutableClock;
import org.coalition.coordination.SiteInfo;
import org.coalition.coordination.SiteStatus;
import org.coalition.coordination.UtilitySums;
import org.coalition.coordination.memory.InMemoryCoordination;
import org.coalition.coordination.memory.InMemoryFederation;
import org.coalition.daemon.base.BoughtSlots;
import org.coalition.daemon.base.Decisions;
import org.coalition.daemon.base.SoldSlots;
import org.coalition.policy.contracts.Contract.Phase;
import org.coalition.policy.contracts.ContractTerms;
import org.coalition.policy.contracts.MarketCalendar;
import org.coalition.policy.contracts.SealedBid.Side;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The desk through one market day on the in-memory twin: south sells one block of its 01:00 slot
 * at a floor of 10,000 credit, north buys one at a ceiling of 20,000 (its 01:00 and 02:00 hours,
 * one block a day), west buys at most 40 under an admin's approval. Sealed in the ten minutes before the gate,
 * revealed after it, and after the close north and south hold one contract at McAfee's price,
 * acknowledged by both, west's lost bid said so, the leader's clearing published once, and the
 * nonces forgotten. A desk restarted between gate and close still reveals, from its bids file.
 */
class MarketDeskTest {
  private static final String TYPE = "batch.cpu8x1";
  private static final LocalDate DAY = LocalDate.of(2026, 12, 3);
  private static final MarketCalendar CALENDAR = MarketCalendar.DEFAULT;

  @TempDir Path tmp;

  private final MutableClock clock = new MutableClock(CALENDAR.gate(DAY).minus(Duration.ofMinutes(5)));
  private final InMemoryFederation fed = new InMemoryFederation(clock);
  private final long oneAm = MarketCalendar.start(DAY).plus(Duration.ofHours(1)).getEpochSecond();

  private record Site(InMemoryCoordination coordination, Decisions decisions, BidBook book, FakeEscrow escrow, SoldSlots sold, BoughtSlots bought) {}

  private Site site(String name) {
    InMemoryCoordination c = fed.connect(name);
    c.join(new SiteInfo(name, "local:" + name, 64), new SiteStatus(name, 64, 0, 0, 0, 1000));
    return new Site(c, new Decisions(name), new BidBook(tmp.resolve(name).resolve("market")), new FakeEscrow(),
        new SoldSlots(), new BoughtSlots());
  }

  private MarketDesk desk(Site s, MarketOffer offer, boolean approval, long price) {
    return new MarketDesk(s.coordination(), List.of(offer), approval, (side, type, slot) -> OptionalLong.of(price), s.book(), clock, s.decisions(),
        Optional.of(s.escrow()), home -> Optional.of("pool-" + home), s.sold(), s.bought());
  }

  /** A desk selling one block of its 01:00 slot at a floor of 10,000. */
  private MarketDesk seller(Site s) {
    return desk(s, new MarketOffer(Side.SELL, TYPE, Set.of(1), 1, 0), false, 10_000);
  }

  /** A desk buying one block of its 01:00 slot at a ceiling of 20,000, under its admin's {@code approval} or not. */
  private MarketDesk buyer(Site s, boolean approval) {
    return desk(s, new MarketOffer(Side.BUY, TYPE, Set.of(1), 1, 1_000_000), approval, 20_000);
  }

  /** The id of the day's one contract, as {@code s} reads the market. */
  private static String contract(Site s) {
    return s.coordination().market().read(DAY).outcomes().get(0).contracts().get(0).id();
  }

  private static long count(Site s, String kindAndReason) {
    return s.decisions().counts().getOrDefault(kindAndReason, 0L);
  }

  @Test
  void aDayIsSealedRevealedAndItsContractAcknowledgedByBothParties() throws Exception {
    Site north = site("north");
    Site south = site("south");
    Site west = site("west");
    MarketDesk buyer = desk(north, new MarketOffer(Side.BUY, TYPE, Set.of(1, 2), 1, 1_000_000), false, 20_000);
    MarketDesk seller = seller(south);
    MarketDesk held = desk(west, new MarketOffer(Side.BUY, TYPE, Set.of(1), 1, 40), true, 100);
    List<MarketDesk> desks = List.of(buyer, seller, held);

    desks.forEach(MarketDesk::step);
    desks.forEach(MarketDesk::step); // a second step seals nothing more
    assertEquals(1, count(north, "market-bid buy"), "north sealed one block a day: " + north.decisions().counts());
    assertEquals(1, count(south, "market-bid sell"));
    Path file = north.book().file(DAY);
    assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)), "the nonces are the site's secret");
    assertEquals(oneAm, north.book().read(DAY).orElseThrow().get(0).bid().slotStart(), "the first slot of its hours");
    assertEquals(40, west.book().read(DAY).orElseThrow().get(0).bid().price(), "a purchase pays no more than the offer's limit");

    clock.advance(Duration.ofMinutes(7)); // two minutes past the gate
    MarketDesk restarted = seller(south);
    List.of(buyer, restarted, held).forEach(MarketDesk::step);
    assertEquals(1, count(south, "market-reveal sell"), "the restarted desk revealed from its bids file");
    assertTrue(north.book().read(DAY).orElseThrow().get(0).revealed());

    clock.advance(Duration.ofMinutes(30)); // past the close
    List.of(buyer, restarted, held).forEach(MarketDesk::step);
    MarketDay day = north.coordination().market().read(DAY);
    ContractTerms terms = day.outcomes().get(0).contracts().get(0);
    assertEquals(List.of("north", "south"), List.of(terms.buyer(), terms.seller()), day.outcomes().toString());
    // McAfee: the next buyer's 40 and, no next seller, the block's 28,800 core-seconds, half their sum between 10,000 and 20,000
    assertEquals(14_420, terms.buyPrice(), day.outcomes().toString());
    Map<String, ?> notes = day.notes().get(terms.id());
    assertEquals(Set.of("north", "south"), notes.keySet(), "both parties acknowledged");
    assertEquals(Phase.ACKNOWLEDGED, day.notes().get(terms.id()).get("north").phase());
    assertEquals(List.of("north"), day.clearedBy(), "the leader (the first to join) published the clearing");
    assertEquals(1, count(north, "market-contract acknowledged"));
    assertEquals(1, count(west, "market-bid lost"), "west's bid said lost: " + west.decisions().counts());
    assertFalse(Files.exists(file), "the day's nonces forgotten once it cleared");

    desks.forEach(MarketDesk::step);
    assertEquals(1, count(north, "market-clearing published"), "published once");
  }

  /** With the site file's {@code approval}, a contract won waits for the admin: the desk says so and does not acknowledge it. */
  @Test
  void aContractWonUnderApprovalIsHeldForTheAdmin() {
    Site south = site("south");
    Site west = site("west");
    MarketDesk seller = seller(south);
    MarketDesk buyer = buyer(west, true);
    trade(List.of(seller, buyer));
    MarketDay day = west.coordination().market().read(DAY);
    ContractTerms terms = day.outcomes().get(0).contracts().get(0);
    assertEquals(1, count(west, "market-contract held-for-admin"), west.decisions().counts().toString());
    assertEquals(Set.of("south"), day.notes().get(terms.id()).keySet(), "only the seller acknowledged; west's admin has not yet");
  }

  /** The minutes of a day's market: sealed 5 minutes before the gate, revealed 2 after it, settled 32 after it. */
  private void trade(List<MarketDesk> desks) {
    for (Duration step : List.of(Duration.ZERO, Duration.ofMinutes(7), Duration.ofMinutes(30))) {
      clock.advance(step);
      desks.forEach(MarketDesk::step);
    }
  }

  /** Steps every desk at {@code at}. */
  private void at(Instant at, List<MarketDesk> desks) {
    clock.advance(Duration.between(clock.instant(), at));
    desks.forEach(MarketDesk::step);
  }

  /** The day's one contract's terms, as {@code s} reads them. */
  private static ContractTerms terms(Site s) {
    return s.coordination().market().read(DAY).outcomes().get(0).contracts().get(0);
  }

  /** What {@code payer}'s ledger row paid, by payee, as every member reads it. */
  private static Map<String, Credit> paid(Site payer) {
    return payer.coordination().ledgerRows().getOrDefault(payer.coordination().site(), LedgerRow.empty("x")).paid();
  }

  private static Phase phase(Site s, String contract) {
    MarketDay day = s.coordination().market().read(DAY);
    return day.notes().get(contract).get(s.coordination().site()).phase();
  }

  /**
   * South holds its block in escrow before it bids, east's dearer sale loses and its escrow is
   * released; at the slot's start south hands its reservation to north's pool account and both note
   * the contract open, at the end both note it settled and south's reservation is released.
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
    assertEquals(Phase.OPEN, phase(north, id), "the buyer follows the seller's note");
    assertEquals(name, north.coordination().market().read(DAY).notes().get(id).get("north").reservation());
    desks.forEach(MarketDesk::step);
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

  /** The price sealed for one offer of {@code s}, its own price being {@code own} (empty: no history). */
  private long sealed(Site s, MarketOffer offer, OptionalLong own) {
    new MarketDesk(s.coordination(), List.of(offer), false, (side, type, slot) -> own, s.book(), clock, s.decisions(), Optional.of(s.escrow()),
        home -> Optional.empty(), s.sold(), s.bought()).step();
    return s.book().read(DAY).map(b -> b.get(b.size() - 1).bid().price()).orElse(-1L);
  }

  /**
   * Where the site's history cannot judge a slot, the site file's limit is the price: a sale asks
   * it, or the block's whole value without one; a purchase offers it, and nothing without one. With
   * history, a purchase's limit of 0 is no limit (the site file's default).
   */
  @Test
  void withoutHistoryTheLimitIsThePriceAndAPurchasesZeroLimitIsNone() {
    assertEquals(5_000, sealed(site("a"), new MarketOffer(Side.BUY, TYPE, Set.of(1), 1, 5_000), OptionalLong.empty()));
    assertEquals(-1, sealed(site("b"), new MarketOffer(Side.BUY, TYPE, Set.of(1), 1, 0), OptionalLong.empty()), "nothing to go by: no bid");
    assertEquals(9_000, sealed(site("c"), new MarketOffer(Side.SELL, TYPE, Set.of(1), 1, 9_000), OptionalLong.empty()));
    assertEquals(8 * 3600, sealed(site("d"), new MarketOffer(Side.SELL, TYPE, Set.of(1), 1, 0), OptionalLong.empty()), "the block's whole value");
    assertEquals(20_000, sealed(site("e"), new MarketOffer(Side.BUY, TYPE, Set.of(1), 1, 0), OptionalLong.of(20_000)), "the ceiling, no limit");
    assertEquals(7_000, sealed(site("f"), new MarketOffer(Side.BUY, TYPE, Set.of(1), 1, 7_000), OptionalLong.of(20_000)), "the limit binds");
    assertEquals(20_000, sealed(site("g"), new MarketOffer(Side.SELL, TYPE, Set.of(1), 1, 9_000), OptionalLong.of(20_000)), "the floor binds");
  }

  /**
   * The admin's acknowledgement of a held contract ({@link ContractBook}): listed as cleared here and
   * acknowledged there, acknowledged by the admin before its slot, and then opened as any other;
   * an unknown id and a slot already open are refused, each saying so.
   */
  @Test
  void aHeldContractAcknowledgedByTheAdminOpensAtItsSlot() {
    Site south = site("south");
    Site west = site("west");
    List<MarketDesk> desks = List.of(seller(south), buyer(west, true));
    trade(desks);
    ContractBook book = new ContractBook(west.coordination(), west.decisions(), clock);
    ContractBook.Entry held = book.around().get(0);
    assertEquals(List.of(Phase.CLEARED, Phase.ACKNOWLEDGED, "south", true), List.of(held.own(), held.theirs(), held.counterparty(),
        held.buying()), "west's admin has not acknowledged it; south has");
    String id = held.terms().id();
    ContractBook.Refused unknown = assertThrows(ContractBook.Refused.class, () -> book.acknowledge("1-nosuch-a-b"));
    assertTrue(unknown.unknown() && unknown.getMessage().contains("has no contract 1-nosuch-a-b"), unknown.getMessage());
    assertEquals(Phase.ACKNOWLEDGED, book.acknowledge(id).own());
    assertEquals(Phase.ACKNOWLEDGED, book.acknowledge(id).own(), "acknowledging again changes nothing");
    assertEquals(1, count(west, "market-contract acknowledged-by-admin"));
    at(Instant.ofEpochSecond(oneAm).plusSeconds(20), desks);
    assertEquals(Phase.OPEN, phase(south, id), "opened, not lapsed");
    assertEquals(Phase.OPEN, phase(west, id));
  }

  @Test
  void aHeldContractWhoseSlotHasOpenedCannotBeAcknowledgedAnyMore() {
    Site south = site("south");
    Site west = site("west");
    trade(List.of(seller(south), buyer(west, true)));
    ContractBook book = new ContractBook(west.coordination(), west.decisions(), clock);
    String id = contract(west);
    clock.advance(Duration.between(clock.instant(), Instant.ofEpochSecond(oneAm).plusSeconds(5)));
    ContractBook.Refused late = assertThrows(ContractBook.Refused.class, () -> book.acknowledge(id));
    assertFalse(late.unknown());
    assertTrue(late.getMessage().contains("slot opened") && late.getMessage().contains("lapsed"), late.getMessage());
  }

  /** A batch system that will not hold the block: nothing is bid for it, and the decision line says why. */
  @Test
  void aBlockTheBatchSystemWillNotHoldIsNotBid() {
    Site south = site("south");
    south.escrow().refuseHolds = true;
    seller(south).step();
    assertEquals(1, count(south, "market-bid no-escrow"), south.decisions().counts().toString());
    assertTrue(south.book().read(DAY).isEmpty(), "no bid made");
  }

  @Test
  void aDeskThatWouldSellWithoutAnEscrowIsRefused() {
    Site south = site("south");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new MarketDesk(south.coordination(),
        List.of(new MarketOffer(Side.SELL, TYPE, Set.of(1), 1, 0)), false, (side, type, slot) -> OptionalLong.of(0), south.book(), clock, south.decisions(),
        Optional.empty(), home -> Optional.empty(), south.sold(), south.bought()));
    assertTrue(e.getMessage().contains("remove contracts.sell"), e.getMessage());
  }

  @Test
  void aBidsFileThatIsNotOneIsAnErrorThatNamesItAndHowToRecover() throws Exception {
    BidBook book = new BidBook(tmp.resolve("market"));
    Files.writeString(book.file(DAY), "{\"day\":\"2026-12-03\",\"bids\":[{\"nonce\":\"nothex\"}]}");
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> book.read(DAY));
    assertTrue(e.getMessage().startsWith(book.file(DAY) + " is not a bids file"), e.getMessage());
    assertTrue(e.getMessage().contains("remove it to give up that day's bids"), e.getMessage());
  }
}
