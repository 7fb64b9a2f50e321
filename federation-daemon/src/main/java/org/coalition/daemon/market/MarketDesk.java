package org.coalition.daemon.market;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Function;
import org.coalition.coordination.ContractNote;
import org.coalition.coordination.Coordination;
import org.coalition.coordination.CoordinationException;
import org.coalition.coordination.Market;
import org.coalition.coordination.MarketDay;
import org.coalition.daemon.base.BoughtSlots;
import org.coalition.daemon.base.Decisions;
import org.coalition.daemon.base.SoldSlots;
import org.coalition.daemon.market.BidBook.OwnBid;
import org.coalition.handler.Escrow;
import org.coalition.handler.HandlerException;
import org.coalition.policy.contracts.BlockType;
import org.coalition.policy.contracts.Commitment;
import org.coalition.policy.contracts.Contract.Phase;
import org.coalition.policy.contracts.ContractTerms;
import org.coalition.policy.contracts.DayAheadMarket.Outcome;
import org.coalition.policy.contracts.DayAheadMarket.Refusal;
import org.coalition.policy.contracts.MarketCalendar;
import org.coalition.policy.contracts.SealedBid;
import org.coalition.policy.contracts.SealedBid.Side;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The site's desk in the day-ahead capacity market (docs/decisions/0020-capacity-contracts.md),
 * stepped every half minute ({@link #step}; the daemon's {@code SiteDaemon.MARKET_STEP}). It keeps no state of its own: what it did is in the market's
 * records and in the day's bids file ({@link BidBook}). By the federation's calendar, for each day:
 *
 * <ol>
 *   <li>in the {@link #SEAL_LEAD} before the gate, it seals one bid per slot of each offer's hours,
 *       up to the offer's blocks a day: for a sale at the larger of its floor and the offer's limit,
 *       for a purchase at the smaller of its ceiling and the limit (none where that is 0); each bid
 *       is kept with its nonce before its commitment is written;
 *   <li>after the gate, it reveals what it committed;
 *   <li>after the reveals close, it acknowledges each contract the day's clearing gives the site, or
 *       holds it for the admin when the site file asks approval, says which bids lost or were
 *       refused, and forgets the day's nonces; the leader publishes the clearing for the record.
 * </ol>
 *
 * It keeps a {@link #MARGIN} from each edge (a quarter of the reveal window if that is shorter),
 * since the servers' clock judges the records and the daemon's may be off. Every step it takes is a
 * decision line ({@code decision=market-bid}, {@code market-reveal}, {@code market-contract},
 * {@code market-clearing}), counted in the metrics as every decision is.
 */
public final class MarketDesk {
  /** The margin kept from each edge of the calendar. */
  static final Duration MARGIN = Duration.ofMinutes(1);
  /** How long before the gate bids are sealed: late, so prices are the freshest, with time to retry a write that failed. */
  static final Duration SEAL_LEAD = Duration.ofMinutes(10);
  /** How long after the close the leader publishes the clearing. */
  static final Duration PUBLISH_WITHIN = Duration.ofMinutes(10);
  private static final Logger LOG = LoggerFactory.getLogger(MarketDesk.class);
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final long DAY_SECONDS = Duration.ofDays(1).toSeconds();

  private final Coordination coordination;
  private final List<MarketOffer> offers;
  private final boolean approval;
  private final BidPrices prices;
  private final BidBook book;
  private final Clock clock;
  private final Decisions decisions;
  private final Optional<Escrow> escrow;
  private final ContractKeeper keeper;
  private final SoldSlots sold;
  private final BoughtSlots bought;

  /**
   * A desk trading {@code offers} for {@code coordination}'s site, at {@code prices}, keeping its
   * nonces in {@code book}; with {@code approval}, contracts wait for the admin's acknowledgement.
   * It sells only what it can hold in {@code escrow} first, and hands a block sold to the pool
   * account {@code poolAccount} gives the buyer ({@link ContractKeeper}); the slots sold that are open
   * go into {@code sold} at each step, for the executor side, and those bought into {@code bought}, for the home side.
   *
   * @throws IllegalArgumentException if it is to sell without an escrow
   */
  public MarketDesk(Coordination coordination, List<MarketOffer> offers, boolean approval, BidPrices prices, BidBook book, Clock clock,
      Decisions decisions, Optional<Escrow> escrow, Function<String, Optional<String>> poolAccount, SoldSlots sold,
      BoughtSlots bought) {
    this.coordination = coordination;
    this.offers = List.copyOf(offers);
    this.approval = approval;
    this.prices = prices;
    this.book = book;
    this.clock = clock;
    this.decisions = decisions;
    this.escrow = escrow;
    this.sold = sold;
    this.bought = bought;
    if (escrow.isEmpty() && offers.stream().anyMatch(o -> o.side() == Side.SELL)) {
      throw new IllegalArgumentException("site " + coordination.site() + " would sell capacity its batch system cannot hold in escrow"
          + " (its handler has no reservations); remove contracts.sell, or grant the daemon the batch system's reservations");
    }
    this.keeper = new ContractKeeper(coordination, escrow, poolAccount, decisions, bought);
  }

  /** One step: each day from yesterday to the day after tomorrow in the phase the calendar has it in now. */
  public synchronized void step() {
    Market market = coordination.market();
    MarketCalendar calendar = market.calendar();
    Instant now = clock.instant();
    Duration margin = margin(calendar);
    LocalDate today = LocalDate.ofInstant(now, ZoneOffset.UTC);
    List<SoldSlots.Slot> open = new ArrayList<>();
    List<BoughtSlots.Slot> boughtOpen = new ArrayList<>();
    for (LocalDate day = today.minusDays(1); !day.isAfter(today.plusDays(2)); day = day.plusDays(1)) {
      Instant gate = calendar.gate(day);
      Instant close = calendar.revealsClose(day);
      if (now.isBefore(gate.minus(margin))) {
        if (!now.isBefore(gate.minus(SEAL_LEAD))) {
          seal(market, calendar, day);
        }
      } else if (!now.isBefore(gate.plus(margin)) && now.isBefore(close.minus(margin))) {
        reveal(market, day);
      } else if (!now.isBefore(close.plus(margin))) {
        ContractKeeper.Open after = after(market, calendar, day, now, now.isBefore(close.plus(margin).plus(PUBLISH_WITHIN))
            && coordination.isLeader(), !day.isAfter(today) && !offers.isEmpty());
        open.addAll(after.sold());
        boughtOpen.addAll(after.bought());
      }
    }
    sold.set(open);
    bought.set(boughtOpen);
  }

  /**
   * After a day's close: its clearing read once, the site's bids settled and their nonces forgotten,
   * the clearing published when {@code leading}, and, on the day of the slots or the day after
   * ({@code slotsNear}), its contracts kept ({@link ContractKeeper}) from the step after the one
   * that acknowledged them; the slots sold that are open after it.
   */
  private ContractKeeper.Open after(Market market, MarketCalendar calendar, LocalDate day, Instant now, boolean leading, boolean slotsNear) {
    var own = book.read(day);
    if (own.isEmpty() && !leading && !slotsNear) {
      return ContractKeeper.Open.NONE;
    }
    MarketDay cleared = market.read(day);
    if (!cleared.closed()) {
      return ContractKeeper.Open.NONE;
    }
    if (own.isPresent()) {
      own.get().forEach(b -> settled(market, b, cleared));
      book.forget(day);
    }
    if (leading && !cleared.outcomes().isEmpty() && !cleared.clearedBy().contains(coordination.site())) {
      market.publishClearing(day, cleared.outcomes());
      decisions.record("market-clearing", day.toString(), "published", cleared.outcomes().size() + " auctions, "
          + cleared.outcomes().stream().mapToInt(o -> o.contracts().size()).sum() + " contracts, as every member clears them");
    }
    return slotsNear && own.isEmpty() ? keeper.step(market, calendar, cleared, now) : ContractKeeper.Open.NONE;
  }

  /** A minute, or a quarter of the reveal window where that is shorter (the testbed's windows of a few minutes). */
  static Duration margin(MarketCalendar calendar) {
    Duration quarter = calendar.revealWindow().dividedBy(4);
    return quarter.compareTo(MARGIN) < 0 ? quarter : MARGIN;
  }

  private void seal(Market market, MarketCalendar calendar, LocalDate day) {
    List<OwnBid> bids = new ArrayList<>(book.read(day).orElse(List.of()));
    boolean added = false;
    for (MarketOffer offer : offers) {
      long made = bids.stream().filter(b -> b.bid().blockType().equals(offer.blockType()) && b.bid().side() == offer.side()).count();
      for (long slot : slots(calendar, day, offer)) {
        if (made >= offer.perDay()) {
          break;
        }
        if (bids.stream().anyMatch(b -> b.of(slot, offer.blockType()))) {
          continue;
        }
        long price = price(offer, slot, calendar.slot());
        if (price == 0 && offer.side() == Side.BUY) {
          continue; // a purchase worth nothing to the site: no bid
        }
        if (offer.side() == Side.SELL && !escrowed(calendar, slot, offer.blockType())) {
          continue;
        }
        bids.add(new OwnBid(new SealedBid(coordination.site(), slot, offer.blockType(), offer.side(), price), nonce(), false, false));
        made++;
        added = true;
      }
    }
    if (added) {
      book.write(day, bids); // every nonce kept before its commitment is written
    }
    for (int i = 0; i < bids.size(); i++) {
      OwnBid b = bids.get(i);
      if (b.committed()) {
        continue;
      }
      try {
        market.commit(b.bid(), b.nonce());
      } catch (CoordinationException e) {
        LOG.warn("site {}: the bid for {} is not sealed yet ({}); the next step tries again until the gate", coordination.site(), b.bid().auction(),
            e.getMessage());
        continue;
      }
      bids.set(i, b.asCommitted());
      book.write(day, bids);
      decisions.record("market-bid", b.bid().auction(), b.bid().side().name().toLowerCase(Locale.ROOT), "sealed a bid to "
          + (b.bid().side() == Side.SELL ? "sell for at least " : "buy for at most ") + b.bid().price() + " credit");
    }
  }

  /**
   * Holds the block in escrow before it is bid (the same reservation again where a step before
   * made it); false, said in a decision line, where the batch system refused.
   */
  private boolean escrowed(MarketCalendar calendar, long slot, String blockType) {
    String name = ContractKeeper.escrowName(slot, blockType);
    Instant start = Instant.ofEpochSecond(slot);
    try {
      escrow.orElseThrow().hold(name, start, start.plus(calendar.slot()), BlockType.partition(blockType), BlockType.nodes(blockType),
          BlockType.coresPerNode(blockType));
      return true;
    } catch (HandlerException e) {
      decisions.record("market-bid", SealedBid.auction(slot, blockType), "no-escrow", "not bid: the batch system did not hold reservation "
          + name + " (" + e.getMessage() + "); the next step tries again until the gate");
      return false;
    }
  }

  /** A sale that won nothing: its escrow given back to the site's own users. */
  private void release(OwnBid b) {
    if (b.bid().side() == Side.SELL) {
      keeper.release(ContractKeeper.escrowName(b.bid().slotStart(), b.bid().blockType()), b.bid().auction());
    }
  }

  /**
   * The price of one block: the site's own floor or ceiling with the offer's limit (a sale takes no
   * less, a purchase pays no more; a purchase's 0 is no limit). Where the history cannot judge the
   * slot, the limit alone: a sale asks it (the block's whole value where it is 0), a purchase offers
   * it (none where it is 0: nothing to go by).
   */
  private long price(MarketOffer offer, long slot, Duration slotLength) {
    long max = SealedBid.MAX_PRICE;
    long limit = Math.min(offer.limit(), max);
    OptionalLong own = prices.price(offer.side(), offer.blockType(), slot);
    if (own.isEmpty()) {
      return offer.side() == Side.BUY ? limit : limit > 0 ? limit : Math.min(max, BlockType.cores(offer.blockType()) * slotLength.toSeconds());
    }
    long value = Math.max(0, Math.min(max, own.getAsLong()));
    return offer.side() == Side.SELL ? Math.max(value, limit) : limit == 0 ? value : Math.min(value, limit);
  }

  /** The slots of {@code day} in the offer's hours that the calendar sells, in time order. */
  private static List<Long> slots(MarketCalendar calendar, LocalDate day, MarketOffer offer) {
    long from = MarketCalendar.start(day).getEpochSecond();
    List<Long> out = new ArrayList<>();
    for (long t = from; t < from + DAY_SECONDS; t += calendar.slot().toSeconds()) {
      if (offer.hours().contains((int) ((t - from) / 3600)) && calendar.unsold(day, t) == null) {
        out.add(t);
      }
    }
    return out;
  }

  private void reveal(Market market, LocalDate day) {
    List<OwnBid> bids = new ArrayList<>(book.read(day).orElse(List.of()));
    boolean changed = false;
    for (int i = 0; i < bids.size(); i++) {
      OwnBid b = bids.get(i);
      if (b.revealed()) {
        continue;
      }
      if (!b.committed()) {
        decisions.record("market-bid", b.bid().auction(), "missed-gate", "its commitment was not written before the gate; it does not count");
        release(b);
        bids.remove(i--);
        changed = true;
        continue;
      }
      try {
        market.reveal(b.bid(), b.nonce());
      } catch (CoordinationException e) {
        LOG.warn("site {}: the bid for {} is not revealed yet ({}); the next step tries again until the reveals close", coordination.site(),
            b.bid().auction(), e.getMessage());
        continue;
      }
      bids.set(i, b.asRevealed());
      changed = true;
      decisions.record("market-reveal", b.bid().auction(), b.bid().side().name().toLowerCase(Locale.ROOT), "revealed its bid of " + b.bid().price()
          + " credit");
    }
    if (changed) {
      book.write(day, bids);
    }
  }

  /** What became of one of the site's bids: its contract acknowledged or held, or why it won none. */
  private void settled(Market market, OwnBid b, MarketDay cleared) {
    String site = coordination.site();
    Outcome outcome = cleared.outcomes().stream().filter(o -> o.slotStart() == b.bid().slotStart() && o.blockType().equals(b.bid().blockType()))
        .findFirst().orElse(null);
    if (outcome == null) {
      decisions.record("market-bid", b.bid().auction(), "not-counted", "the day's clearing has no auction of it");
      release(b);
      return;
    }
    Refusal refusal = outcome.refused().stream().filter(r -> r.site().equals(site)).findFirst().orElse(null);
    if (refusal != null) {
      decisions.record("market-bid", b.bid().auction(), "refused", "it " + refusal.fault().words());
      release(b);
      return;
    }
    ContractTerms won = outcome.contracts().stream().filter(c -> c.buyer().equals(site) || c.seller().equals(site)).findFirst().orElse(null);
    if (won == null) {
      decisions.record("market-bid", b.bid().auction(), "lost", outcome.reason());
      release(b);
      return;
    }
    String terms = (won.buyer().equals(site) ? "buys from " + won.seller() + " at " + won.buyPrice() : "sells to " + won.buyer() + " at "
        + won.sellPrice()) + " credit";
    if (approval) {
      decisions.record("market-contract", won.id(), "held-for-admin", terms + "; the site file asks the admin's approval");
      return;
    }
    market.note(new ContractNote(site, won, Phase.ACKNOWLEDGED, ""));
    decisions.record("market-contract", won.id(), "acknowledged", terms);
  }

  private static String nonce() {
    byte[] bytes = new byte[Commitment.NONCE_BYTES];
    RANDOM.nextBytes(bytes);
    return HexFormat.of().formatHex(bytes);
  }
}
