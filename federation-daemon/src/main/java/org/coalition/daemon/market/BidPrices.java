package org.coalition.daemon.market;

import java.util.OptionalLong;
import org.coalition.policy.contracts.SealedBid.Side;

/**
 * What a block is worth to this site, in whole credit (core-seconds): for a sale the floor its
 * own users' expected delay sets, for a purchase the ceiling the wait it would save sets
 * ({@link org.coalition.policy.contracts.ContractPrices}, from the site's history). The desk then
 * applies the offer's limit, or, where the history has nothing to say, bids the limit alone.
 */
public interface BidPrices {
  /**
   * The floor ({@link Side#SELL}) or ceiling ({@link Side#BUY}) for one block of {@code blockType}
   * in the slot starting at {@code slotStart}; empty where the site's history cannot judge it (an
   * hour never seen yet).
   */
  OptionalLong price(Side side, String blockType, long slotStart);
}
