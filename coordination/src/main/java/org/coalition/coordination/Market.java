package org.coalition.coordination;

import java.time.LocalDate;
import java.util.List;
import org.coalition.policy.contracts.DayAheadMarket.Outcome;
import org.coalition.policy.contracts.MarketCalendar;
import org.coalition.policy.contracts.SealedBid;

/**
 * One site's handle on the day-ahead capacity market (docs/decisions/0020-capacity-contracts.md):
 * its sealed bids, the clearing every member recomputes, and what each party says of a contract.
 * Each site writes only under its own market folder, every record once (it can neither change nor
 * delete one; the operator deletes days past; writing a record again as it is changes nothing, so
 * a write whose answer was lost may be retried); every member reads all of them and believes only
 * what the rules let count, judged by the servers' clock ({@link MarketDay}).
 */
public interface Market {
  /** The federation's calendar (its operator's: the same at every member), by which the gate and the reveals are judged. */
  MarketCalendar calendar();

  /**
   * Seals {@code bid} for its day's market: writes the commitment of the bid and {@code nonce}
   * (64 hex digits of 32 random bytes). INVALID if the bid is another site's, its slot cannot be
   * sold in that market, the gate has passed, or the site already committed for that slot and type.
   */
  void commit(SealedBid bid, String nonce);

  /** Reveals a bid committed before: INVALID before the gate, after the reveals closed, or revealed already. */
  void reveal(SealedBid bid, String nonce);

  /** What the members wrote for {@code day}'s market, as the rules let this site believe it. */
  MarketDay read(LocalDate day);

  /** Writes the day's clearing for the record, once, as the leader does once the reveals closed; members check it against their own. */
  void publishClearing(LocalDate day, List<Outcome> outcomes);

  /**
   * Writes what this site says of one of its contracts: one note per phase, each written once
   * (INVALID if it noted that phase already); a party's furthest phase is what it says now.
   */
  void note(ContractNote note);
}
