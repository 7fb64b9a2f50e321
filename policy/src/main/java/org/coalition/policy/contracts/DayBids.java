package org.coalition.policy.contracts;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.coalition.policy.contracts.Commitment.Reveal;
import org.coalition.policy.contracts.DayAheadMarket.Outcome;

/**
 * The bids of one day's market that count, gathered auction by auction (a slot and a block type)
 * by whoever reads the market's records and has judged each by the calendar, and each auction's
 * outcome from them ({@link DayAheadMarket#clear}). Every reader of the market, ZooKeeper's and
 * the in-memory twin, clears with it, so all clear alike: the auctions in the order of slot, then
 * block type; an auction that has a commitment or a reveal has an outcome, if only its refusals.
 */
public final class DayBids {
  private final Map<Auction, Map<String, String>> commitments = new TreeMap<>();
  private final Map<Auction, List<Reveal>> reveals = new TreeMap<>();

  /** A commitment that counts: {@code site}'s, for the auction of {@code blockType} in the slot starting at {@code slotStart}. */
  public void commitment(long slotStart, String blockType, String site, String commitment) {
    Auction a = new Auction(slotStart, blockType);
    reveals.computeIfAbsent(a, k -> new ArrayList<>());
    commitments.computeIfAbsent(a, k -> new TreeMap<>()).put(site, commitment);
  }

  /** A reveal written in the reveal window, of the auction its bid names. */
  public void reveal(Reveal reveal) {
    Auction a = new Auction(reveal.bid().slotStart(), reveal.bid().blockType());
    commitments.computeIfAbsent(a, k -> new TreeMap<>());
    reveals.computeIfAbsent(a, k -> new ArrayList<>()).add(reveal);
  }

  /** Each auction's outcome, slot by slot, in slots {@code slotSeconds} long. */
  public List<Outcome> clear(long slotSeconds) {
    List<Outcome> out = new ArrayList<>();
    commitments.forEach((a, c) -> out.add(DayAheadMarket.clear(a.slotStart(), a.blockType(), slotSeconds, c, reveals.get(a))));
    return out;
  }

  /** One auction of the day: a slot and a block type, in the order of slot, then type. */
  private record Auction(long slotStart, String blockType) implements Comparable<Auction> {
    @Override
    public int compareTo(Auction o) {
      return Comparator.comparingLong(Auction::slotStart).thenComparing(Auction::blockType).compare(this, o);
    }
  }
}
