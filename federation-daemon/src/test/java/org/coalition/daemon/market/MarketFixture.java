package org.coalition.daemon.market;

import java.nio.file.Path;
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
import org.coalition.coordination.memory.InMemoryCoordination;
import org.coalition.coordination.memory.InMemoryFederation;
import org.coalition.daemon.base.BoughtSlots;
import org.coalition.daemon.base.Decisions;
import org.coalition.daemon.base.SoldSlots;
import org.coalition.policy.contracts.Contract.Phase;
import org.coalition.policy.contracts.ContractTerms;
import org.coalition.policy.contracts.MarketCalendar;
import org.coalition.policy.contracts.SealedBid.Side;
import org.junit.jupiter.api.io.TempDir;

/**
 * One market day on the in-memory twin, for the desk's tests: sites that join it with a bids
 * file, a hand-written escrow and the slot views of their own, desks that sell or buy one block
 * of type {@code batch.cpu8x1} in the 01:00 slot, and the day's minutes on a clock the test moves.
 */
abstract class MarketFixture {
  static final String TYPE = "batch.cpu8x1";
  static final LocalDate DAY = LocalDate.of(2026, 12, 3);
  static final MarketCalendar CALENDAR = MarketCalendar.DEFAULT;

  @TempDir Path tmp;

  final MutableClock clock = new MutableClock(CALENDAR.gate(DAY).minus(Duration.ofMinutes(5)));
  final InMemoryFederation fed = new InMemoryFederation(clock);
  final long oneAm = MarketCalendar.start(DAY).plus(Duration.ofHours(1)).getEpochSecond();

  record Site(InMemoryCoordination coordination, Decisions decisions, BidBook book, FakeEscrow escrow, SoldSlots sold, BoughtSlots bought) {}

  Site site(String name) {
    InMemoryCoordination c = fed.connect(name);
    c.join(new SiteInfo(name, "local:" + name, 64), new SiteStatus(name, 64, 0, 0, 0, 1000));
    return new Site(c, new Decisions(name), new BidBook(tmp.resolve(name).resolve("market")), new FakeEscrow(),
        new SoldSlots(), new BoughtSlots());
  }

  MarketDesk desk(Site s, MarketOffer offer, boolean approval, long price) {
    return new MarketDesk(s.coordination(), List.of(offer), approval, (side, type, slot) -> OptionalLong.of(price), s.book(), clock, s.decisions(),
        Optional.of(s.escrow()), home -> Optional.of("pool-" + home), s.sold(), s.bought());
  }

  /** A desk selling one block of its 01:00 slot at a floor of 10,000. */
  MarketDesk seller(Site s) {
    return desk(s, new MarketOffer(Side.SELL, TYPE, Set.of(1), 1, 0), false, 10_000);
  }

  /** A desk buying one block of its 01:00 slot at a ceiling of 20,000, under its admin's {@code approval} or not. */
  MarketDesk buyer(Site s, boolean approval) {
    return desk(s, new MarketOffer(Side.BUY, TYPE, Set.of(1), 1, 1_000_000), approval, 20_000);
  }

  /** The id of the day's one contract, as {@code s} reads the market. */
  static String contract(Site s) {
    return s.coordination().market().read(DAY).outcomes().get(0).contracts().get(0).id();
  }

  static long count(Site s, String kindAndReason) {
    return s.decisions().counts().getOrDefault(kindAndReason, 0L);
  }


  /** The minutes of a day's market: sealed 5 minutes before the gate, revealed 2 after it, settled 32 after it. */
  void trade(List<MarketDesk> desks) {
    for (Duration step : List.of(Duration.ZERO, Duration.ofMinutes(7), Duration.ofMinutes(30))) {
      clock.advance(step);
      desks.forEach(MarketDesk::step);
    }
  }

  /** Steps every desk at {@code at}. */
  void at(Instant at, List<MarketDesk> desks) {
    clock.advance(Duration.between(clock.instant(), at));
    desks.forEach(MarketDesk::step);
  }

  /** The day's one contract's terms, as {@code s} reads them. */
  static ContractTerms terms(Site s) {
    return s.coordination().market().read(DAY).outcomes().get(0).contracts().get(0);
  }

  /** What {@code payer}'s ledger row paid, by payee, as every member reads it. */
  static Map<String, Credit> paid(Site payer) {
    return payer.coordination().ledgerRows().getOrDefault(payer.coordination().site(), LedgerRow.empty("x")).paid();
  }

  static Phase phase(Site s, String contract) {
    MarketDay day = s.coordination().market().read(DAY);
    return day.notes().get(contract).get(s.coordination().site()).phase();
  }
}
