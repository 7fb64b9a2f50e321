package org.coalition.config;

import java.util.List;
import java.util.Set;

/**
 * What a site may trade in the day-ahead capacity market (the site file's {@code contracts:}
 * block; docs/site-file.md, docs/decisions/0020-capacity-contracts.md). The market's calendar (its
 * gate, reveal window and slot length) is the federation's, the same for every member, and not
 * set here: members that judged the gate differently would count different bids.
 *
 * @param enabled whether the daemon bids at all (off by default)
 * @param approval whether each contract won waits for the admin's acknowledgement
 *     ({@code coalition contracts} ...) before the daemon acknowledges it; otherwise it does at once
 * @param sell the blocks this site may sell, each a block type of its own capacity
 * @param buy the blocks it may buy
 */
public record ContractsSettings(boolean enabled, boolean approval, List<Offer> sell, List<Offer> buy) {
  /** No market: the default of a site file without the block. */
  public static final ContractsSettings NONE = new ContractsSettings(false, false, List.of(), List.of());

  public ContractsSettings {
    sell = List.copyOf(sell);
    buy = List.copyOf(buy);
  }

  /**
   * One kind of block a site may trade: its type ({@code PARTITION.cpuCxN[.FLAVOUR]}), the UTC
   * hours of the day whose slots it may be traded in, how many of its blocks a day at most, and a
   * price limit in credit (core-seconds): for a sale the lowest it takes, above the floor its own
   * users' expected delay sets; for a purchase the most it pays, below the ceiling the wait it would
   * save sets. {@code limit} 0 for a sale, or the block's core-seconds for a purchase, adds nothing.
   */
  public record Offer(String type, Set<Integer> hours, int perDay, long limit) {
    public Offer {
      hours = Set.copyOf(hours);
    }
  }
}
