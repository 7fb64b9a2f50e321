package org.coalition.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.coalition.coordination.MutableClock;
import org.coalition.coordination.memory.InMemoryFederation;
import org.coalition.daemon.Broker;
import org.coalition.daemon.FakeBatch;
import org.coalition.daemon.TestSettings;
import org.coalition.daemon.outputs.RunOutputs;
import org.coalition.policy.fairness.Utility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The operations kit in docs/ops (the Grafana dashboard, the Prometheus alert rules) asks only for
 * metrics a daemon exports: every metric name in their queries is registered in a real daemon's
 * {@code /metrics}, and every label they select or group by is one that metric carries (checked
 * where the scrape has a sample of it). Renaming a metric without the kit fails here.
 */
class OpsKitTest {
  private static final Path OPS = Path.of("..", "docs", "ops");
  /** Prometheus's own series, not the daemon's. */
  private static final Set<String> PROMETHEUS = Set.of("up");
  private static final Pattern NAME = Pattern.compile("\\b(coalition_[a-z0-9_]+|up)\\b");
  private static final Pattern SELECTOR = Pattern.compile("\\b(coalition_[a-z0-9_]+|up)\\{([^}]*)}");
  private static final Pattern GROUPING = Pattern.compile("\\bby \\(([^)]*)\\)");
  private static final Pattern TYPE = Pattern.compile("^# TYPE (\\S+) (\\S+)$", Pattern.MULTILINE);
  private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)\\{([^}]*)} ", Pattern.MULTILINE);

  @TempDir Path tmp;

  @Test
  void everyMetricAndLabelTheKitUsesIsExported() throws Exception {
    Metrics metrics = metrics();
    String scrape = metrics.scrape();
    Map<String, String> types = new HashMap<>();
    Matcher t = TYPE.matcher(scrape);
    while (t.find()) {
      types.put(t.group(1), t.group(2));
    }
    Set<String> registered = metrics.names();
    Map<String, Set<String>> labels = new HashMap<>();
    Matcher s = SAMPLE.matcher(scrape);
    while (s.find()) {
      Set<String> keys = labels.computeIfAbsent(base(s.group(1), types), k -> new HashSet<>());
      for (String pair : s.group(2).split(",(?=[a-zA-Z_]+=\")")) {
        keys.add(pair.substring(0, pair.indexOf('=')));
      }
    }
    List<String> exprs = exprs();
    assertTrue(exprs.size() >= 20, "the kit's queries were read: " + exprs.size());
    Set<String> missing = new TreeSet<>();
    Set<String> used = new TreeSet<>();
    for (String expr : exprs) {
      Matcher n = NAME.matcher(expr);
      Set<String> inExpr = new HashSet<>();
      while (n.find()) {
        String name = base(n.group(1), types);
        inExpr.add(name);
        used.add(name);
        if (!PROMETHEUS.contains(name) && !registered.contains(name) && !registered.contains(name.replaceFirst("_total$", ""))) {
          missing.add(n.group(1) + " (in " + expr + ")");
        }
      }
      Matcher sel = SELECTOR.matcher(expr);
      while (sel.find()) {
        String name = base(sel.group(1), types);
        for (String matcher : sel.group(2).split(",")) {
          String key = matcher.strip().split("[=!~]")[0];
          if (!key.isEmpty() && labels.containsKey(name) && !labels.get(name).contains(key)) {
            missing.add(name + " has no label " + key + " (in " + expr + ")");
          }
        }
      }
      Matcher by = GROUPING.matcher(expr);
      while (by.find()) {
        for (String key : by.group(1).split(",")) {
          String k = key.strip();
          boolean somewhere = k.equals("le") || inExpr.stream().anyMatch(m -> !labels.containsKey(m) || labels.get(m).contains(k));
          if (!somewhere) {
            missing.add("no metric of '" + expr + "' has label " + k);
          }
        }
      }
    }
    assertEquals(Set.of(), missing, "metrics or labels the kit uses and the daemon does not export");
    for (String essential : List.of("coalition_reservation_ratio", "coalition_ledger", "coalition_pilots", "coalition_zookeeper_connected",
        "coalition_batch_system_up", "coalition_claim_latency_seconds")) {
      assertTrue(used.contains(essential), "the kit shows " + essential);
    }
  }

  /** The name of a series' metric: a histogram's _bucket, _sum and _count, and a counter's _total belong to it (format 0.0.4). */
  private static String base(String name, Map<String, String> types) {
    for (String suffix : List.of("_bucket", "_sum", "_count", "_total")) {
      String b = name.endsWith(suffix) ? name.substring(0, name.length() - suffix.length()) : null;
      if (b != null && ("histogram".equals(types.get(b)) || "counter".equals(types.get(b)))) {
        return b;
      }
    }
    return name;
  }

  /** Every query of the dashboard (panels, variables) and of the alert rules. */
  private static List<String> exprs() throws Exception {
    List<String> out = new ArrayList<>();
    JsonNode dashboard = new ObjectMapper().readTree(Files.readString(OPS.resolve("grafana-dashboard.json")));
    dashboard.findValues("expr").forEach(e -> out.add(e.asText()));
    dashboard.path("templating").path("list").forEach(v -> out.add(v.path("query").asText()));
    for (String line : Files.readAllLines(OPS.resolve("alerts.yml"))) {
      String l = line.strip();
      if (l.startsWith("expr:")) {
        out.add(l.substring("expr:".length()).strip());
      }
    }
    return out;
  }

  private Metrics metrics() {
    MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
    FakeBatch batch = new FakeBatch(8);
    var c = new InMemoryFederation(clock).connect("north");
    c.refusePeerRecord("JobSpec");
    Broker broker = new Broker(TestSettings.builder("north").endpoint("local:north").utility(Utility.SIMPL)
        .publishAfter(Duration.ZERO).maxPendingPilots(4).build(), c, batch, Optional.of(batch),
        new RunOutputs(tmp), clock);
    broker.start();
    broker.tick();
    return new Metrics(broker, LocalHealth.INSTANCE, () -> 0);
  }
}
