package org.coalition.daemon.market;

import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.IntSupplier;
import java.util.function.Supplier;
import org.coalition.policy.contracts.BlockType;
import org.coalition.policy.contracts.ContractPrices;
import org.coalition.policy.contracts.SealedBid.Side;

/**
 * A block's worth to this site from its own history of the slot's hour ({@link HourlyLoad}), as
 * docs/decisions/0020 defines it ({@link ContractPrices}): a sale's floor is the expected delay
 * EG(L, Phi) its users would suffer, with the hour's mean queue L and arrival rate; a purchase's
 * ceiling the block's core-seconds its queue of that hour would fill. Where the hour has no
 * history yet (a new site's first day), or the block is larger than the site, none: the desk then
 * bids the site file's limit alone. An hour with no arrivals seen gives a floor of 0 (EG tends
 * to 0 with the rate).
 */
public final class HistoryPrices implements BidPrices {
  private final HourlyLoad history;
  private final IntSupplier siteCores;
  private final Supplier<Duration> slot;

  /** Prices from {@code history} for a site of {@code siteCores} (its last observation's) and slots of {@code slot} (the calendar's). */
  public HistoryPrices(HourlyLoad history, IntSupplier siteCores, Supplier<Duration> slot) {
    this.history = history;
    this.siteCores = siteCores;
    this.slot = slot;
  }

  @Override
  public OptionalLong price(Side side, String blockType, long slotStart) {
    int hour = (int) Math.floorMod(slotStart / 3600, 24L);
    long blockCores = BlockType.cores(blockType);
    long seconds = slot.get().toSeconds();
    int cores = siteCores.getAsInt();
    Optional<Double> queue = history.queueSeconds(hour);
    Optional<Double> rate = history.arrivalsPerSecond(hour);
    if (blockCores > cores || queue.isEmpty() || rate.isEmpty()) {
      return OptionalLong.empty();
    }
    if (side == Side.BUY) {
      return OptionalLong.of(ContractPrices.buyCeiling(queue.get(), (int) blockCores, cores, seconds));
    }
    return OptionalLong.of(rate.get() == 0 ? 0 : ContractPrices.sellFloor(queue.get(), rate.get(), (int) blockCores, cores, seconds));
  }
}
