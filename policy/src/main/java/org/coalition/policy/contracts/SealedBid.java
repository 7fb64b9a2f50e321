package org.coalition.policy.contracts;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One site's bid in the day-ahead market: one block of {@code blockType} in the slot starting at
 * {@code slotStart} (UTC epoch seconds), to buy for at most or sell for at least {@code price}
 * whole credit units (core-seconds). docs/decisions/0020-capacity-contracts.md: one block, one
 * side per (slot, type).
 */
public record SealedBid(String site, long slotStart, String blockType, Side side, long price) {
  /** A site id as the site file names it. */
  static final Pattern SITE = Pattern.compile("[a-z0-9][a-z0-9_-]{0,31}");
  /** The most a bid may ask or offer: a week of a 100,000-core block, far above any real block. */
  public static final long MAX_PRICE = 100_000L * 7 * 24 * 3600;

  /** Buy or sell. */
  public enum Side { BUY, SELL }

  public SealedBid {
    Objects.requireNonNull(side, "side");
    if (site == null || !SITE.matcher(site).matches()) {
      throw new IllegalArgumentException("bid: site id must match " + SITE + ", was " + site);
    }
    String typeProblem = BlockType.problem(blockType);
    if (typeProblem != null) {
      throw new IllegalArgumentException("bid of " + site + ": " + typeProblem);
    }
    if (slotStart < 0) {
      throw new IllegalArgumentException("bid of " + site + ": slot start must be >= 0 (UTC epoch seconds), was " + slotStart);
    }
    if (price < 0 || price > MAX_PRICE) {
      throw new IllegalArgumentException("bid of " + site + ": price must be between 0 and " + MAX_PRICE + " credit, was " + price);
    }
  }

  /** The name of an auction, {@code SLOT.TYPE}, as the market's records and messages give it. */
  public static String auction(long slotStart, String blockType) {
    return slotStart + "." + blockType;
  }

  /** The name of the auction this bid is in ({@link #auction(long, String)}). */
  public String auction() {
    return auction(slotStart, blockType);
  }

  /** The text a commitment hashes: one field a line, nothing left to interpretation. */
  String canonical() {
    return "coalition-bid-v1\n" + site + "\n" + slotStart + "\n" + blockType + "\n" + side + "\n" + price + "\n";
  }

  Bid asBid() {
    return new Bid(site, price);
  }
}
