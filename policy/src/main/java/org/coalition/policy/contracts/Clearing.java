package org.coalition.policy.contracts;

import java.util.List;

/**
 * The outcome of one double auction: who trades, what each winning buyer pays and each winning
 * seller receives, and which of McAfee's two cases applied.
 */
public record Clearing(List<String> buyers, List<String> sellers, double buyPrice, double sellPrice, String reason) {
  public Clearing {
    buyers = List.copyOf(buyers);
    sellers = List.copyOf(sellers);
  }

  public int trades() {
    return buyers.size();
  }

  /** What the auctioneer keeps: (buy price - sell price) per trade, never negative. */
  public double surplus() {
    return trades() * (buyPrice - sellPrice);
  }
}
