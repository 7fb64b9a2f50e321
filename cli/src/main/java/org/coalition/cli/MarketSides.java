package org.coalition.cli;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.coalition.config.ContractsSettings;
import org.coalition.config.SiteConfig;
import org.coalition.daemon.Broker;
import org.coalition.daemon.market.BidBook;
import org.coalition.daemon.market.HistoryPrices;
import org.coalition.daemon.market.HourlyLoad;
import org.coalition.daemon.market.MarketDesk;
import org.coalition.daemon.market.MarketOffer;
import org.coalition.daemon.market.MarketSide;
import org.coalition.handler.QueueObservation;
import org.coalition.handler.ResourceHandler;
import org.coalition.policy.contracts.SealedBid.Side;

/**
 * The daemon's market side from the site file's {@code contracts:} block (docs/site-file.md): its
 * offers, its prices from the site's own hourly history, its bids file and history in
 * {@code SPOOL/market}, the batch system's escrow; none when the block is off.
 */
final class MarketSides {
  private MarketSides() {}

  /**
   * The market side of {@code broker}, or empty when {@code contracts.enabled} is false.
   *
   * @throws IllegalArgumentException when the site file sells what {@code handler} cannot hold in escrow
   */
  static Optional<MarketSide> of(SiteConfig c, Broker broker, ResourceHandler handler) {
    ContractsSettings contracts = c.contracts();
    if (!contracts.enabled()) {
      return Optional.empty();
    }
    HourlyLoad history = new HourlyLoad(c.spool().resolve("market"));
    HistoryPrices prices = new HistoryPrices(history, () -> broker.lastObservation().map(QueueObservation::totalCores).orElse(0),
        () -> broker.coordination().market().calendar().slot());
    MarketDesk desk = new MarketDesk(broker.coordination(), offers(contracts), contracts.approval(), prices,
        new BidBook(c.spool().resolve("market")), Clock.systemUTC(), broker.decisions(), handler.escrow(), broker.settings()::accountFor,
        broker.soldSlots(), broker.boughtSlots());
    return Optional.of(new MarketSide(desk, history));
  }

  /** The block's entries as the desk's offers, sales first. */
  static List<MarketOffer> offers(ContractsSettings contracts) {
    List<MarketOffer> out = new ArrayList<>();
    contracts.sell().forEach(o -> out.add(new MarketOffer(Side.SELL, o.type(), o.hours(), o.perDay(), o.limit())));
    contracts.buy().forEach(o -> out.add(new MarketOffer(Side.BUY, o.type(), o.hours(), o.perDay(), o.limit())));
    return out;
  }
}
