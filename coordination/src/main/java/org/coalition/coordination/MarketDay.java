package org.coalition.coordination;

import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import org.coalition.policy.contracts.DayAheadMarket.Outcome;

/**
 * A day's market as one member believes it: whether its reveals have closed, the outcome of each
 * (slot, block type) auction recomputed from the bids that count (empty until the reveals close),
 * the members whose published clearing matched that, and each contract's notes by writer. What
 * did not count was refused, counted and logged once ({@link Coordination#refusedPeerRecords}).
 */
public record MarketDay(LocalDate day, boolean closed, List<Outcome> outcomes, List<String> clearedBy,
    Map<String, Map<String, ContractNote>> notes) {
  public MarketDay {
    outcomes = List.copyOf(outcomes);
    clearedBy = List.copyOf(clearedBy);
    notes = Map.copyOf(notes);
  }
}
