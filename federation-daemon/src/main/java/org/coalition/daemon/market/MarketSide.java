package org.coalition.daemon.market;

/**
 * A site's part in the capacity market as the daemon runs it: its {@link MarketDesk}, stepped
 * every half minute, and the {@link HourlyLoad} its prices learn from, fed each round with what
 * the batch system showed and kept at each step.
 */
public final class MarketSide {
  private final MarketDesk desk;
  private final HourlyLoad history;

  public MarketSide(MarketDesk desk, HourlyLoad history) {
    this.desk = desk;
    this.history = history;
  }

  /** One round's observation: at {@code epochSeconds}, {@code waiting} local jobs wait and {@code queueSeconds} of the site's work. */
  public void observed(long epochSeconds, int waiting, double queueSeconds) {
    history.observe(epochSeconds, waiting, queueSeconds);
  }

  /** One step of the desk, and the history kept. */
  public void step() {
    history.save();
    desk.step();
  }
}
