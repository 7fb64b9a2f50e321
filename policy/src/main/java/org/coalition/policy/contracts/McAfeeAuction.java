package org.coalition.policy.contracts;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.coalition.policy.text.Numbers;

/**
 * McAfee's double auction (contracts paper, Algorithm 1; McAfee 1992), for single-block bids.
 *
 * <p>Buy bids sorted high to low {@code b_1 >= b_2 >= ...}, sell bids low to high {@code s_1 <= s_2
 * <= ...} (ties by bidder id). {@code k} is the number of pairs with {@code b_i >= s_i}. With
 * {@code p0 = (b_{k+1} + s_{k+1}) / 2}: if {@code s_k <= p0 <= b_k}, the first k pairs trade at
 * p0; otherwise the first k-1 pairs trade, buyers paying {@code b_k} and sellers receiving
 * {@code s_k}. When there is no (k+1)-th pair on both sides, p0 does not exist and the second case
 * applies. The mechanism is truthful (bidding one's value is a dominant strategy) and weakly budget
 * balanced (the auctioneer never pays).
 */
public final class McAfeeAuction {
  private McAfeeAuction() {}

  public static Clearing clear(List<Bid> buyBids, List<Bid> sellBids) {
    return clear(buyBids, sellBids, Comparator.naturalOrder());
  }

  /**
   * As {@link #clear(List, List)}, with equal prices ordered by {@code ties} over bidder ids
   * instead of the ids' own order (a market that ran every hour with ties by id would always
   * serve the same bidder first).
   */
  public static Clearing clear(List<Bid> buyBids, List<Bid> sellBids, Comparator<String> ties) {
    return clear(buyBids, sellBids, ties, Double.NaN);
  }

  /**
   * As {@link #clear(List, List, Comparator)} in a market whose good is worth at most
   * {@code value} to anyone: where the (k+1)-th pair is missing on one side or both, its place is
   * taken by the bounds of the good's value, a buy at 0 and a sell at {@code value}, so that p0
   * still exists ({@code NaN}: no bounds, McAfee's own rule). p0 depends on no bid among the
   * first k pairs, as in McAfee's proof, so bidding one's value stays the dominant strategy and
   * the auctioneer still never pays; what changes is that a thin market trades: one buyer and one
   * seller trade at half the good's value when it lies between their prices, where McAfee's rule
   * drops the only pair.
   */
  public static Clearing clear(List<Bid> buyBids, List<Bid> sellBids, Comparator<String> ties, double value) {
    List<Bid> buys = sorted(buyBids, Comparator.comparingDouble(Bid::price).reversed().thenComparing(Bid::bidder, ties), "buy");
    List<Bid> sells = sorted(sellBids, Comparator.comparingDouble(Bid::price).thenComparing(Bid::bidder, ties), "sell");
    int k = 0;
    while (k < buys.size() && k < sells.size() && buys.get(k).price() >= sells.get(k).price()) {
      k++;
    }
    if (k == 0) {
      return new Clearing(List.of(), List.of(), 0, 0, "no buy bid reaches the lowest sell bid: no trade");
    }
    double bk = buys.get(k - 1).price();
    double sk = sells.get(k - 1).price();
    boolean bounded = !Double.isNaN(value);
    if (k < buys.size() && k < sells.size() || bounded) {
      double p0 = ((k < buys.size() ? buys.get(k).price() : 0) + (k < sells.size() ? sells.get(k).price() : value)) / 2;
      if (sk <= p0 && p0 <= bk) {
        String next = k < buys.size() && k < sells.size() ? "the next pair's mid price " : "the mid price of the next pair (bounded by the good's value "
            + Numbers.format(value) + ") ";
        return new Clearing(bidders(buys, k), bidders(sells, k), p0, p0, k + " efficient pairs; " + next
            + Numbers.format(p0) + " lies in [" + Numbers.format(sk) + ", " + Numbers.format(bk) + "]: all " + k + " trade at it");
      }
    }
    return new Clearing(bidders(buys, k - 1), bidders(sells, k - 1), bk, sk, k + " efficient pairs; no mid price in ["
        + Numbers.format(sk) + ", " + Numbers.format(bk) + "]: the last pair is dropped, " + (k - 1) + " trade, buyers pay " + Numbers.format(bk)
        + ", sellers get " + Numbers.format(sk));
  }

  private static List<Bid> sorted(List<Bid> bids, Comparator<Bid> order, String side) {
    Set<String> seen = new HashSet<>();
    for (Bid bid : bids) {
      if (!seen.add(bid.bidder())) {
        throw new IllegalArgumentException(bid.bidder() + " placed two " + side + " bids in one auction");
      }
    }
    List<Bid> copy = new ArrayList<>(bids);
    copy.sort(order);
    return copy;
  }

  private static List<String> bidders(List<Bid> bids, int count) {
    return bids.subList(0, count).stream().map(Bid::bidder).toList();
  }
}
