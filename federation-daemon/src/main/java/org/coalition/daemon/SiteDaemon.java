package org.coalition.daemon;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.coalition.daemon.base.Contain;
import org.coalition.daemon.market.MarketSide;
import org.coalition.periodic.BalancingPeriod;
import org.coalition.periodic.PeriodicScheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running site: its broker ticked every {@code tick} and whenever the federation queue
 * changes, and on Quartz the balancing period (lost-run sweep, BILB on the leader) and, where the
 * site trades capacity, its market desk.
 */
public final class SiteDaemon implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(SiteDaemon.class);

  private final Broker broker;
  private final ScheduledExecutorService ticker;
  private final AtomicBoolean wakePending = new AtomicBoolean();
  private final PeriodicScheduler periodic;
  private final Optional<MarketSide> market;

  /** How often the market desk steps, on UTC's grid of it (a slot of whole minutes opens at a step): its calendar's margins are a minute. */
  static final Duration MARKET_STEP = Duration.ofSeconds(30);

  private SiteDaemon(Broker broker, Duration tick, Duration period, Optional<MarketSide> market) {
    this.broker = broker;
    this.market = market; // before the first tick, which feeds it
    String site = broker.settings().site();
    this.ticker = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "broker-" + site);
      t.setDaemon(true);
      return t;
    });
    broker.start();
    broker.coordination().watchQueue(this::wake);
    ticker.scheduleWithFixedDelay(this::tick, 0, tick.toMillis(), TimeUnit.MILLISECONDS);
    this.periodic = new PeriodicScheduler(site, period, new BalancingPeriod(broker.coordination()));
    market.ifPresent(m -> periodic.every("market-desk", MARKET_STEP, () -> Contain.run(LOG, site, "the market desk's step", m::step)));
  }

  /** Joins the federation and starts ticking. */
  public static SiteDaemon start(Broker broker, Duration tick, Duration period) {
    return new SiteDaemon(broker, tick, period, Optional.empty());
  }

  /** Joins the federation, starts ticking, and steps its {@code market} side every {@link #MARKET_STEP}, feeding it each round. */
  public static SiteDaemon start(Broker broker, Duration tick, Duration period, Optional<MarketSide> market) {
    return new SiteDaemon(broker, tick, period, market);
  }

  public Broker broker() {
    return broker;
  }

  /** The queue changed: tick soon (at most one extra tick waits at a time). */
  private void wake() {
    if (wakePending.compareAndSet(false, true)) {
      try {
        ticker.schedule(() -> {
          wakePending.set(false);
          tick();
        }, 50, TimeUnit.MILLISECONDS);
      } catch (RejectedExecutionException e) {
        // closing
      }
    }
  }

  /** A tick that throws would end the schedule for good: anything short of a fatal VM error is logged and the next tick runs. */
  private void tick() {
    Contain.run(LOG, broker.settings().site(), "the broker's round", broker::tick);
    market.ifPresent(m -> broker.lastObservation().filter(o -> o.totalCores() > 0).ifPresent(o -> m.observed((long) o.observedAt(),
        Math.max(0, o.pendingJobs() - broker.pilotsByState().getOrDefault("pending", 0)), o.pendingCoreSeconds() / o.totalCores())));
  }

  /** Hands out no more work, stops ticking and the period, and cancels pilots still waiting; running pilots finish their jobs. */
  @Override
  public void close() {
    broker.stopHandingOutWork();
    ticker.shutdown();
    try {
      ticker.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    periodic.close();
    broker.cancelPendingPilots();
  }
}
