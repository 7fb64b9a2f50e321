package org.coalition.simulator.contracts;

/**
 * One what-if of capacity contracts (docs/decisions/0020, "What-if") on one SWF log.
 *
 * @param sites how many sites replay the log, site i shifted by i x 24 h / sites (the contracts
 *     paper shifts its trace by each data centre's time zone)
 * @param days days replayed per site, from the log's first job on
 * @param cores each site's cores; jobs asking more are clipped to it
 * @param blockCores the cores of the one block type traded, one block per bid
 * @param misreport the factor site 0 applies to its bids (1: truthful), to measure what lying gains
 * @param slotHours a slot's length in hours (the design's default: 1), a divisor of 24
 */
public record ContractsConfig(int sites, int days, int cores, int blockCores, double misreport, int slotHours) {
  static final long DAY = 86_400;

  public ContractsConfig {
    require(sites >= 2 && sites <= 1000, "--sites must be between 2 and 1000, was " + sites);
    require(days >= 2 && days <= 3650, "--days must be between 2 and 3650 (day 0 has no history to bid from), was " + days);
    require(cores >= 1, "--cores must be at least 1, was " + cores);
    require(blockCores >= 1 && blockCores <= cores, "--block-cores must be between 1 and the site's " + cores + " cores, was " + blockCores);
    require(misreport > 0 && misreport <= 100, "--misreport must be in (0, 100], was " + misreport);
    require(slotHours >= 1 && 24 % slotHours == 0, "--slot-hours must divide 24 (1, 2, 3, 4, 6, 8, 12 or 24), was " + slotHours);
  }

  long slotSeconds() {
    return slotHours * 3600L;
  }

  int slotsPerDay() {
    return 24 / slotHours;
  }

  private static void require(boolean ok, String message) {
    if (!ok) {
      throw new IllegalArgumentException(message);
    }
  }
}
