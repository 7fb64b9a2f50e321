package org.coalition.daemon.market;

import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.coalition.coordination.ContractNote;
import org.coalition.coordination.Coordination;
import org.coalition.coordination.Market;
import org.coalition.coordination.MarketDay;
import org.coalition.daemon.base.Decisions;
import org.coalition.policy.contracts.Contract.Phase;
import org.coalition.policy.contracts.ContractTerms;
import org.coalition.policy.contracts.MarketCalendar;

/**
 * The site's contracts as its admin reads them ({@code GET /v1/contracts}, {@code coalition
 * contracts list}): those of yesterday's, today's and tomorrow's slots, each with what this site
 * and the other party say of it, from the market's records alone; and the admin's acknowledgement
 * of a contract the site file holds for approval ({@code contracts.approval}), written as the desk
 * would write it, until the slot opens.
 */
public final class ContractBook {
  /** One of the site's contracts: its terms, whether the site buys, each party's furthest phase, and the seller's reservation once open. */
  public record Entry(ContractTerms terms, boolean buying, Phase own, Phase theirs, String reservation) {
    /** The price this site pays (buying) or is paid (selling), in credit. */
    public double price() {
      return buying ? terms.buyPrice() : terms.sellPrice();
    }

    /** The other party. */
    public String counterparty() {
      return buying ? terms.seller() : terms.buyer();
    }
  }

  /** Why an acknowledgement was not written: no such contract of this site, or too late. */
  public static final class Refused extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final boolean unknown;

    Refused(String message, boolean unknown) {
      super(message);
      this.unknown = unknown;
    }

    /** Whether no contract of that id is this site's (rather than one past acknowledging). */
    public boolean unknown() {
      return unknown;
    }
  }

  private final Coordination coordination;
  private final Decisions decisions;
  private final Clock clock;

  public ContractBook(Coordination coordination, Decisions decisions, Clock clock) {
    this.coordination = coordination;
    this.decisions = decisions;
    this.clock = clock;
  }

  /** The site's contracts of yesterday's to tomorrow's slots (UTC days), in slot order. */
  public List<Entry> around() {
    LocalDate today = LocalDate.ofInstant(clock.instant(), ZoneOffset.UTC);
    Market market = coordination.market();
    List<Entry> out = new ArrayList<>();
    for (LocalDate day = today.minusDays(1); !day.isAfter(today.plusDays(1)); day = day.plusDays(1)) {
      out.addAll(entries(market.read(day)));
    }
    out.sort(Comparator.comparingLong((Entry e) -> e.terms().slotStart()).thenComparing(e -> e.terms().id()));
    return out;
  }

  /** The contract {@code id} of this site, if any (of any day the market still keeps). */
  public Optional<Entry> find(String id) {
    long slot = slotOf(id);
    if (slot < 0) {
      return Optional.empty();
    }
    return entries(coordination.market().read(MarketCalendar.dayOf(slot))).stream().filter(e -> e.terms().id().equals(id)).findFirst();
  }

  /**
   * The admin's acknowledgement of contract {@code id}, held for approval: noted {@code ACKNOWLEDGED}
   * now (nothing more if it is already); refused if it is not this site's, or its slot has opened.
   */
  public Entry acknowledge(String id) {
    Entry e = find(id).orElseThrow(() -> new Refused("site " + coordination.site() + " has no contract " + id
        + " (coalition contracts list shows them)", true));
    if (e.own() != Phase.CLEARED) {
      return e;
    }
    if (!clock.instant().isBefore(Instant.ofEpochSecond(e.terms().slotStart()))) {
      throw new Refused("contract " + id + "'s slot opened at " + Instant.ofEpochSecond(e.terms().slotStart()) + " before it was"
          + " acknowledged: it lapsed", false);
    }
    coordination.market().note(new ContractNote(coordination.site(), e.terms(), Phase.ACKNOWLEDGED, ""));
    decisions.record("market-contract", id, "acknowledged-by-admin", (e.buying() ? "buys from " : "sells to ") + e.counterparty() + " at "
        + e.price() + " credit");
    return new Entry(e.terms(), e.buying(), Phase.ACKNOWLEDGED, e.theirs(), e.reservation());
  }

  private List<Entry> entries(MarketDay day) {
    String site = coordination.site();
    List<Entry> out = new ArrayList<>();
    day.outcomes().stream().flatMap(o -> o.contracts().stream()).filter(c -> c.buyer().equals(site) || c.seller().equals(site)).forEach(c -> {
      Map<String, ContractNote> notes = day.notes().getOrDefault(c.id(), Map.of());
      boolean buying = c.buyer().equals(site);
      ContractNote mine = notes.get(site);
      ContractNote theirs = notes.get(buying ? c.seller() : c.buyer());
      ContractNote seller = buying ? theirs : mine;
      out.add(new Entry(c, buying, mine == null ? Phase.CLEARED : mine.phase(), theirs == null ? Phase.CLEARED : theirs.phase(),
          seller == null ? "" : seller.reservation()));
    });
    return out;
  }

  /** The slot a contract's id begins with ({@code SLOT-TYPE-SELLER-BUYER}), or -1 if it is not such an id. */
  private static long slotOf(String id) {
    int dash = id == null ? -1 : id.indexOf('-');
    try {
      return dash > 0 && dash <= 12 ? Long.parseLong(id.substring(0, dash)) : -1;
    } catch (NumberFormatException e) {
      return -1;
    }
  }
}
