package org.coalition.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.coalition.coordination.MutableClock;
import org.coalition.coordination.memory.InMemoryFederation;
import org.coalition.daemon.Broker;
import org.coalition.daemon.FakeBatch;
import org.coalition.daemon.TestSettings;
import org.coalition.daemon.base.BoughtSlots;
import org.coalition.daemon.base.SoldSlots;
import org.coalition.daemon.outputs.RunOutputs;
import org.coalition.policy.fairness.Utility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code /metrics} as the Prometheus client writes it: every metric of docs/api.md with its labels, histograms, JVM and build info. */
class MetricsTest {
  @TempDir Path tmp;

  private String scrape(double participation) {
    return scrape(participation, broker -> { });
  }

  /** A scrape after one tick, {@code set} applied to the broker before it. */
  private String scrape(double participation, Consumer<Broker> set) {
    MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
    FakeBatch batch = new FakeBatch(8);
    batch.allocatedCores = 2;
    var c = new InMemoryFederation(clock).connect("north");
    c.refusePeerRecord("JobSpec");
    Broker broker = new Broker(TestSettings.builder("north").endpoint("local:north").participation(participation)
        .utility(Utility.SIMPL).publishAfter(Duration.ZERO).maxPendingPilots(4).build(), c, batch, Optional.of(batch),
        new RunOutputs(tmp), clock);
    broker.start();
    broker.tick();
    broker.setParticipation(participation);
    set.accept(broker);
    return new Metrics(broker, LocalHealth.INSTANCE, () -> 0).scrape();
  }

  @Test
  void everyDocumentedMetricKeepsItsNameAndLabels() {
    String text = scrape(7200);
    assertEquals(8.0, Exposition.value(text, "coalition_cores", Map.of("site", "north")), text);
    assertEquals(0.25, Exposition.value(text, "coalition_reservation_ratio", Map.of("site", "north")), text);
    assertEquals(0.0, Exposition.value(text, "coalition_queue_jobs", Map.of("site", "north")), text);
    assertEquals(0.0, Exposition.value(text, "coalition_queue_core_seconds", Map.of("site", "north")), text);
    assertEquals(7200.0, Exposition.value(text, "coalition_participation_level", Map.of("site", "north")), text);
    assertEquals(0.0, Exposition.value(text, "coalition_pilots", Map.of("site", "north", "state", "pending")), text);
    assertEquals(0.0, Exposition.value(text, "coalition_jobs_in_federation", Map.of("site", "north", "state", "all")), text);
    assertEquals(1.0, Exposition.value(text, "coalition_decisions_total", Map.of("site", "north", "decision", "participation",
        "reason", "operator")), text);
    assertEquals(1.0, Exposition.value(text, "coalition_zookeeper_connected", Map.of("site", "north")), text);
    assertEquals(1.0, Exposition.value(text, "coalition_leader", Map.of("site", "north")), text);
    assertTrue(text.contains("coalition_ledger{"), "the ledger is empty until a run is folded; its TYPE line is there:\n" + text);
    assertEquals(1.0, Exposition.value(text, "coalition_peer_records_refused_total", Map.of("site", "north", "record", "JobSpec")), text);
  }

  @Test
  void theContractBlocksOpenNowAreCountedByTheirSide() {
    assertEquals(0.0, Exposition.value(scrape(7200), "coalition_contract_cores_open", Map.of("site", "north", "side", "buy")));
    Instant end = Instant.parse("2026-01-01T01:00:00Z");
    String text = scrape(7200, broker -> {
      broker.boughtSlots().set(List.of(new BoughtSlots.Slot("south", 8, end), new BoughtSlots.Slot("west", 4, end)));
      broker.soldSlots().set(List.of(new SoldSlots.Slot("east", "coalition_1_batch_cpu16x1", 16, end)));
    });
    assertEquals(12.0, Exposition.value(text, "coalition_contract_cores_open", Map.of("site", "north", "side", "buy")), text);
    assertEquals(16.0, Exposition.value(text, "coalition_contract_cores_open", Map.of("site", "north", "side", "sell")), text);
  }

  @Test
  void histogramsJvmProcessAndBuildInfoAreThere() {
    String text = scrape(7200);
    for (String histogram : List.of("coalition_observation_seconds", "coalition_claim_latency_seconds", "coalition_publish_to_start_seconds")) {
      assertTrue(text.contains("# TYPE " + histogram + " histogram"), histogram + " missing:\n" + text);
    }
    assertEquals(1.0, Exposition.value(text, "coalition_observation_seconds_count", Map.of("site", "north")), "one tick observed once");
    for (String step : List.of("allowances", "home round", "results", "pilots round", "eviction", "pilot submission", "status")) {
      assertEquals(1.0, Exposition.value(text, "coalition_round_step_seconds_count", Map.of("site", "north", "step", step)),
          "one tick ran step " + step + " once:\n" + text);
    }
    assertTrue(text.contains("coalition_build_info{version="), text);
    assertTrue(text.contains("jvm_memory_used_bytes{"), "JVM metrics");
    assertTrue(text.contains("process_cpu_seconds_total"), "process metrics");
  }

  @Test
  void largeValuesAreWrittenInFull() {
    assertEquals(1234567.8, Exposition.value(scrape(1234567.8), "coalition_participation_level", Map.of("site", "north")));
    assertTrue(scrape(1234567.8).contains("coalition_participation_level{site=\"north\"} 1234567.8"), "not 1.23457e+06");
  }
}
