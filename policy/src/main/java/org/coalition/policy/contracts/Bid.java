package org.coalition.policy.contracts;

import java.util.Objects;

/** One sealed bid for one block of capacity: to buy at most, or to sell at least, {@code price}. */
public record Bid(String bidder, double price) {

  public Bid {
    Objects.requireNonNull(bidder, "bidder");
    if (!(price >= 0) || Double.isInfinite(price)) {
      throw new IllegalArgumentException("bid of " + bidder + ": price must be finite and >= 0, was " + price);
    }
  }
}
