package org.coalition.policy.contracts;

import org.coalition.policy.balancing.ExpectedDelay;

/**
 * What a block is worth to each side, in credit (core-seconds), as docs/decisions/0020 defines it.
 * Both lie between 0 and the block's core-seconds in the slot.
 *
 * <ul>
 *   <li>A seller's floor: the block, taken from its site of {@code siteCores} for the slot, is
 *       foreign load {@code Phi = slot x blockCores / siteCores} of the whole site; its users' next
 *       job waits EG(L, Phi) longer (the BILB paper's expected delay, Section 3.3, with the hour's
 *       arrival rate lambda); the floor is that wait of the block's cores.
 *   <li>A buyer's ceiling: the queued work the block would run in the slot, its queue L of the
 *       whole site's work being {@code L x siteCores} core-seconds.
 * </ul>
 */
public final class ContractPrices {
  private ContractPrices() {}

  /** The least a seller should take, in whole credit (rounded up). */
  public static long sellFloor(double queueSeconds, double arrivalsPerSecond, int blockCores, int siteCores, long slotSeconds) {
    check(queueSeconds, blockCores, siteCores, slotSeconds);
    if (!(arrivalsPerSecond > 0) || Double.isInfinite(arrivalsPerSecond)) {
      throw new IllegalArgumentException("the hour's local arrival rate must be > 0 jobs a second, was " + arrivalsPerSecond);
    }
    double phi = (double) slotSeconds * blockCores / siteCores;
    return (long) Math.ceil(ExpectedDelay.of(phi, queueSeconds, arrivalsPerSecond) * blockCores);
  }

  /** The most a buyer should pay, in whole credit (rounded down). */
  public static long buyCeiling(double queueSeconds, int blockCores, int siteCores, long slotSeconds) {
    check(queueSeconds, blockCores, siteCores, slotSeconds);
    return (long) Math.floor(Math.min((double) blockCores * slotSeconds, queueSeconds * siteCores));
  }

  private static void check(double queueSeconds, int blockCores, int siteCores, long slotSeconds) {
    if (!(queueSeconds >= 0) || Double.isInfinite(queueSeconds)) {
      throw new IllegalArgumentException("queue length must be >= 0 seconds, was " + queueSeconds);
    }
    if (blockCores < 1 || blockCores > siteCores) {
      throw new IllegalArgumentException("a block has between 1 core and the site's " + siteCores + ", was " + blockCores);
    }
    if (slotSeconds < 1) {
      throw new IllegalArgumentException("a slot lasts at least a second, was " + slotSeconds);
    }
  }
}
