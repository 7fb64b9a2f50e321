package org.coalition.coordination.memory;

import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.coalition.coordination.ContractNote;
import org.coalition.coordination.CoordinationException;
import org.coalition.coordination.CoordinationException.Kind;
import org.coalition.coordination.LedgerRow;
import org.coalition.coordination.Market;
import org.coalition.coordination.MarketDay;
import org.coalition.coordination.UtilitySums;
import org.coalition.policy.contracts.Commitment;
import org.coalition.policy.contracts.Commitment.Reveal;
import org.coalition.policy.contracts.ContractLifecycle;
import org.coalition.policy.contracts.ContractLifecycle.Credit;
import org.coalition.policy.contracts.ContractTerms;
import org.coalition.policy.contracts.DayAheadMarket.Outcome;
import org.coalition.policy.contracts.DayBids;
import org.coalition.policy.contracts.MarketCalendar;
import org.coalition.policy.contracts.SealedBid;

/**
 * The market's in-memory twin, for the daemon's unit tests: the rules of ZooKeeper's market
 * (docs/decisions/0020-capacity-contracts.md) on records held by {@link InMemoryFederation}, each
 * stamped with the federation's clock when written, as the servers stamp a node; a note that owes a
 * payment pays it from the writer's ledger row with its first writing, as ZooKeeper's multi does. A member writes
 * only through this interface, so the hostile records ZooKeeper's reader refuses cannot arise
 * here; the integration tests against real ZooKeeper try those.
 */
final class InMemoryMarket implements Market {
  private final InMemoryFederation fed;
  private final String site;

  InMemoryMarket(InMemoryFederation fed, String site) {
    this.fed = fed;
    this.site = site;
  }

  /** A commitment as written: its auction and the commitment. */
  record Sealed(long slotStart, String blockType, String commitment) {}

  /** One record of a member's market folder: its name ({@code SLOT.TYPE.commit} and so on, as in ZooKeeper) and when it was written. */
  record Written(String writer, LocalDate day, String name, Object record, long atMillis) {}

  @Override
  public MarketCalendar calendar() {
    synchronized (fed.lock) {
      return fed.marketCalendar;
    }
  }

  @Override
  public void commit(SealedBid bid, String nonce) {
    CoordinationException.requireOwn(site, bid.site());
    synchronized (fed.lock) {
      LocalDate day = sellable(bid);
      Instant gate = fed.marketCalendar.gate(day);
      if (!fed.clock.instant().isBefore(gate)) {
        throw new CoordinationException(Kind.INVALID, "the gate of the market of " + day + " closed at " + gate + "; bid for a later day");
      }
      write(day, bid.auction() + ".commit", new Sealed(bid.slotStart(), bid.blockType(), Commitment.of(bid, nonce)),
          "a bid for this slot and block type is committed already");
    }
  }

  @Override
  public void reveal(SealedBid bid, String nonce) {
    CoordinationException.requireOwn(site, bid.site());
    synchronized (fed.lock) {
      LocalDate day = sellable(bid);
      Instant now = fed.clock.instant();
      MarketCalendar calendar = fed.marketCalendar;
      if (now.isBefore(calendar.gate(day)) || !now.isBefore(calendar.revealsClose(day))) {
        throw new CoordinationException(Kind.INVALID, "bids for " + day + " are revealed from " + calendar.gate(day) + " until "
            + calendar.revealsClose(day) + ", not at " + now);
      }
      Reveal reveal = new Reveal(bid, nonce);
      Written own = find(site, day, bid.auction() + ".commit");
      if (own == null) {
        throw new CoordinationException(Kind.INVALID, "no commitment of " + site + " for " + bid.auction() + " to reveal; commit before the gate");
      }
      if (!reveal.matches(((Sealed) own.record()).commitment())) {
        throw new CoordinationException(Kind.INVALID, "this bid and nonce are not what " + site + " committed; reveal the bid committed");
      }
      write(day, bid.auction() + ".reveal", reveal, "this bid is revealed already");
    }
  }

  @Override
  public void publishClearing(LocalDate day, List<Outcome> outcomes) {
    synchronized (fed.lock) {
      write(day, "clearing", List.copyOf(outcomes), "this site published the day's clearing already");
    }
  }

  @Override
  public void note(ContractNote note) {
    CoordinationException.requireOwn(site, note.writer());
    synchronized (fed.lock) {
      LocalDate day = MarketCalendar.dayOf(note.terms().slotStart());
      String name = "contract." + note.terms().id() + "." + note.phase();
      boolean fresh = find(site, day, name) == null;
      write(day, name, note, "this site noted that phase of the contract already");
      Optional<Credit> owed = ContractLifecycle.paidWith(note.terms(), note.writer(), note.phase());
      if (fresh && owed.isPresent()) {
        LedgerRow row = fed.ledgers.getOrDefault(site, LedgerRow.empty(site));
        fed.ledgers.put(site, row.paid(owed.get().to(), UtilitySums.paid(owed.get().amount(), note.terms().slotStart())));
      }
    }
  }

  @Override
  public MarketDay read(LocalDate day) {
    synchronized (fed.lock) {
      MarketCalendar calendar = fed.marketCalendar;
      if (fed.clock.instant().isBefore(calendar.revealsClose(day))) {
        return new MarketDay(day, false, List.of(), List.of(), Map.of());
      }
      long gate = calendar.gate(day).toEpochMilli();
      DayBids bids = new DayBids();
      for (Written w : fed.market) {
        if (!w.day().equals(day)) {
          continue;
        }
        if (w.record() instanceof Sealed c && w.atMillis() < gate) {
          bids.commitment(c.slotStart(), c.blockType(), w.writer(), c.commitment());
        } else if (w.record() instanceof Reveal r) {
          bids.reveal(r); // written only inside the window (reveal above)
        }
      }
      List<Outcome> outcomes = bids.clear(calendar.slot().toSeconds());
      List<ContractTerms> cleared = outcomes.stream().flatMap(o -> o.contracts().stream()).toList();
      List<String> clearedBy = new ArrayList<>();
      Map<String, Map<String, ContractNote>> notes = new TreeMap<>();
      for (Written w : fed.market) {
        if (!w.day().equals(day)) {
          continue;
        }
        if (w.name().equals("clearing") && w.record().equals(outcomes)) {
          clearedBy.add(w.writer());
        } else if (w.record() instanceof ContractNote n && cleared.contains(n.terms())) {
          // a party's furthest phase is what it says of the contract now
          notes.computeIfAbsent(n.terms().id(), k -> new TreeMap<>()).merge(w.writer(), n, (a, b) -> a.phase().compareTo(b.phase()) >= 0 ? a : b);
        }
      }
      return new MarketDay(day, true, outcomes, clearedBy, notes);
    }
  }

  private LocalDate sellable(SealedBid bid) {
    LocalDate day = MarketCalendar.dayOf(bid.slotStart());
    String why = fed.marketCalendar.unsold(day, bid.slotStart());
    if (why != null) {
      throw new CoordinationException(Kind.INVALID, "bid of " + bid.site() + ": " + why);
    }
    return day;
  }

  private Written find(String writer, LocalDate day, String name) {
    return fed.market.stream().filter(w -> w.writer().equals(writer) && w.day().equals(day) && w.name().equals(name)).findFirst().orElse(null);
  }

  /** Writes this site's record {@code name} once; {@code taken} is the error when it holds something else (the same again is no change). */
  private void write(LocalDate day, String name, Object record, String taken) {
    Written there = find(site, day, name);
    if (there != null && there.record().equals(record)) {
      return;
    }
    if (there != null) {
      throw new CoordinationException(Kind.INVALID, site + "'s " + name + " of " + day + ": " + taken);
    }
    fed.market.add(new Written(site, day, name, record, fed.clock.millis()));
  }
}
