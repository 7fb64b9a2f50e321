package org.coalition.daemon.market;

import java.util.Objects;
import java.util.Set;
import org.coalition.policy.contracts.BlockType;
import org.coalition.policy.contracts.SealedBid.Side;

/**
 * One kind of block the desk may trade, as the site file's {@code contracts:} block says it
 * (docs/site-file.md): a side, a block type, the UTC hours of the day whose slots it bids for, at
 * most {@code perDay} blocks a day, and a price limit in credit (for a sale the least it takes, for
 * a purchase the most it pays; the desk's own floor or ceiling may ask more or offer less).
 */
public record MarketOffer(Side side, String blockType, Set<Integer> hours, int perDay, long limit) {
  public MarketOffer {
    Objects.requireNonNull(side, "side");
    String problem = BlockType.problem(blockType);
    if (problem != null) {
      throw new IllegalArgumentException(problem);
    }
    hours = Set.copyOf(hours);
    if (hours.stream().anyMatch(h -> h < 0 || h > 23) || perDay < 0 || limit < 0) {
      throw new IllegalArgumentException("offer of " + blockType + ": hours in 0-23, per-day and limit >= 0");
    }
  }
}
