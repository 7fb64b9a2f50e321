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
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.coalition.coordination.MarketDay;
import org.coalition.policy.contracts.Contract.Phase;
import org.coalition.policy.contracts.ContractTerms;
import org.coalition.policy.contracts.SealedBid.Side;
import org.junit.jupiter.api.Test;

/**
 * The desk through one market day on the in-memory twin: south sells one block of its 01:00 slot
 * at a floor of 10,000 credit, north buys one at a ceiling of 20,000 (its 01:00 and 02:00 hours,
 * one block a day), west buys at most 40 under an admin's approval. Sealed in the ten minutes before the gate,
 * revealed after it, and after the close north and south hold one contract at McAfee's price,
 * acknowledged by both, west's lost bid said so, the leader's clearing published once, and the
 * nonces forgotten. A desk restarted between gate and close still reveals, from its bids file.
 */
class MarketDeskTest extends MarketFixture {
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
    assertEquals(Phase.ACKNOWLEDGED, phase(west, id), "west pays the fee once it sees its block used, or at the slot's end");
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
