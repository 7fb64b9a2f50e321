package org.coalition.api;

import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Info;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.ToDoubleFunction;
import org.coalition.coordination.Coordination;
import org.coalition.coordination.SiteLedger;
import org.coalition.daemon.Broker;
import org.coalition.daemon.base.BoughtSlots;
import org.coalition.daemon.base.SoldSlots;
import org.coalition.handler.QueueObservation;
import org.coalition.policy.fairness.Utility;

/**
 * One daemon's metrics in a registry of the Prometheus Java client, served as the text exposition
 * (format 0.0.4): gauges read from the broker when scraped, the broker's histograms, JVM and
 * process metrics, and {@code coalition_build_info}. docs/api.md lists them.
 */
final class Metrics {
  private final PrometheusRegistry registry = new PrometheusRegistry();
  private final PrometheusTextFormatWriter writer = PrometheusTextFormatWriter.create();

  /** {@code shed}: the API's connections closed unread for their client's limit ({@link ConnectionsPerAddress}). */
  Metrics(Broker broker, DaemonHealth health, LongSupplier shed) {
    String site = broker.settings().site();
    Coordination c = broker.coordination();
    observation(site, broker, "coalition_queue_jobs", "Jobs waiting in the local queue.", QueueObservation::pendingJobs);
    observation(site, broker, "coalition_queue_core_seconds", "Work waiting in the local queue, core-seconds of time limits.",
        QueueObservation::pendingCoreSeconds);
    observation(site, broker, "coalition_reservation_ratio", "Allocated cores over total cores of usable nodes.",
        QueueObservation::reservationRatio);
    observation(site, broker, "coalition_cores", "Cores of usable nodes.", QueueObservation::totalCores);
    gauge("coalition_participation_level", "Declared participation level l, core-seconds per period.", cb -> cb.call(broker.participation(),
        site), "site");
    gauge("coalition_pilots", "Pilots of this daemon by state.", cb -> broker.pilotsByState().forEach((state, n) -> cb.call(n, site, state)),
        "site", "state");
    gauge("coalition_jobs_in_federation", "This site's published jobs still in the federation, by state.", cb -> {
      var jobs = c.jobs(site);
      cb.call(jobs.stream().filter(j -> j.claimed() && !j.finished()).count(), site, "claimed");
      cb.call(jobs.size(), site, "all");
    }, "site", "state");
    registry.register(CounterWithCallback.builder().name("coalition_decisions_total").help("Decisions of the broker by kind and reason.")
        .labelNames("site", "decision", "reason").callback(cb -> {
          for (Map.Entry<String, Long> e : broker.decisions().counts().entrySet()) {
            String[] kindReason = e.getKey().split(" ", 2);
            cb.call(e.getValue(), site, kindReason[0], kindReason[1]);
          }
        }).build());
    registry.register(CounterWithCallback.builder().name("coalition_peer_records_refused_total")
        .help("Peers' records this site refused (unreadable, out of bounds, naming another node, a ledger row that went back), by kind;"
            + " each node and reason once.")
        .labelNames("site", "record").callback(cb -> c.refusedPeerRecords().forEach((record, n) -> cb.call(n, site, record))).build());
    registry.register(CounterWithCallback.builder().name("coalition_api_connections_shed_total")
        .help("Connections to the API closed unread because their client (an IPv4 address, an IPv6 /64) held " + ApiLimits.MAX_PER_CLIENT
            + " already.").labelNames("site").callback(cb -> cb.call(shed.getAsLong(), site)).build());
    Utility u = broker.settings().utility();
    gauge("coalition_ledger", "DirectContr ledger per site (" + u + " utility): contribution, utility, priority.", cb -> {
      double now = c.now();
      for (Map.Entry<String, SiteLedger> e : c.ledgers().entrySet()) {
        SiteLedger l = e.getValue();
        cb.call(l.contribution().get(u).at(now), e.getKey(), "contribution");
        cb.call(l.utility().get(u).at(now), e.getKey(), "utility");
        cb.call(l.priority(u, now), e.getKey(), "priority");
      }
    }, "site", "value");
    gauge("coalition_batch_system_up", "1 while the local batch system answers (the last observation succeeded).",
        cb -> cb.call(broker.batchHealth().up() ? 1 : 0, site), "site");
    gauge("coalition_batch_system_observation_age_seconds", "Seconds since the last good observation of the local batch system.",
        cb -> broker.batchHealth().age().ifPresent(a -> cb.call(a.toMillis() / 1000.0, site)), "site");
    gauge("coalition_zookeeper_connected", "1 while the ZooKeeper session is connected.", cb -> cb.call(health.zookeeperConnected() ? 1 : 0,
        site), "site");
    gauge("coalition_contract_cores_open", "Cores of the capacity-contract blocks whose slot is open now: bought (this site's jobs go there"
        + " beyond the send allowance) and sold (the buyers' pilots run here).", cb -> {
          cb.call(broker.boughtSlots().open().stream().mapToInt(BoughtSlots.Slot::cores).sum(), site, "buy");
          cb.call(broker.soldSlots().open().stream().mapToInt(SoldSlots.Slot::cores).sum(), site, "sell");
        }, "site", "side");
    gauge("coalition_leader", "1 while this daemon leads the federation (runs BILB).", cb -> cb.call(c.isLeader() ? 1 : 0, site), "site");
    broker.metrics().registerInto(registry);
    Info build = Info.builder().name("coalition_build_info").help("The running build of Coalition.").labelNames("version").build();
    build.addLabelValues(Optional.ofNullable(Broker.class.getPackage().getImplementationVersion()).orElse("development"));
    registry.register(build);
    JvmMetrics.builder().register(registry);
  }

  private void gauge(String name, String help, Consumer<GaugeWithCallback.Callback> callback, String... labels) {
    registry.register(GaugeWithCallback.builder().name(name).help(help).labelNames(labels).callback(callback).build());
  }

  /** A gauge of the last observation of the batch system; absent before the first one. */
  private void observation(String site, Broker broker, String name, String help, ToDoubleFunction<QueueObservation> value) {
    gauge(name, help, cb -> broker.lastObservation().ifPresent(o -> cb.call(value.applyAsDouble(o), site)), "site");
  }

  /** The text exposition of every metric now. */
  String scrape() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      writer.write(out, registry.scrape());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString(StandardCharsets.UTF_8);
  }

  /**
   * The names of every metric registered, as Prometheus names them (a counter without its
   * {@code _total}), those without a sample yet included: the text leaves those out.
   */
  Set<String> names() {
    Set<String> out = new TreeSet<>();
    registry.scrape().forEach(m -> out.add(m.getMetadata().getPrometheusName()));
    return out;
  }
}
