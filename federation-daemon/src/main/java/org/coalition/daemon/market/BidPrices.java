package org.coalition.daemon.market;

import org.coalition.policy.contracts.SealedBid.Side;

/**
 * What a block is worth to this site, in whole credit (core-seconds): for a sale the floor its
 * own users' expected delay sets, for a purchase the ceiling the wait it would save sets
 * ({@link org.coalition.policy.contracts.ContractPrices}, from the site's history). The desk then
 * applies the offer's limit.
 */
public interface BidPrices {
  /** The floor ({@link Side#SELL}) or ceiling ({@link Side#BUY}) for one block of {@code blockType} in the slot starting at {@code slotStart}. */
  long price(Side side, String blockType, long slotStart);
}
