package org.coalition.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Prometheus's own checker reads the operations kit (docs/ops): the alert rules load, and every
 * query of the Grafana dashboard parses as PromQL (each made a recording rule, its variables
 * given values). promtool comes with {@code testbed/up tools}; without it this test fails.
 */
class OpsKitIT {
  private static final Path OPS = Path.of("..", "docs", "ops");

  @TempDir Path tmp;

  private static String promtool(Path rules) throws Exception {
    Path tool = Path.of("/usr/bin/promtool");
    assertTrue(Files.isExecutable(tool), "promtool is missing: testbed/up tools installs it (Debian's prometheus)");
    Process p = new ProcessBuilder(tool.toString(), "check", "rules", rules.toString()).redirectErrorStream(true).start();
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "promtool did not end");
    String out = new String(p.getInputStream().readAllBytes());
    assertEquals(0, p.exitValue(), "promtool check rules " + rules + ":\n" + out);
    return out;
  }

  @Test
  void theAlertRulesLoad() throws Exception {
    String out = promtool(OPS.resolve("alerts.yml"));
    assertTrue(out.contains("SUCCESS: 9 rules found"), out);
  }

  @Test
  void everyQueryOfTheDashboardIsPromQl() throws Exception {
    JsonNode dashboard = new ObjectMapper().readTree(Files.readString(OPS.resolve("grafana-dashboard.json")));
    List<String> exprs = new ArrayList<>();
    dashboard.findValues("expr").forEach(e -> exprs.add(e.asText().replace("$site", ".+")));
    assertTrue(exprs.size() >= 15, "the dashboard's queries were read: " + exprs.size());
    StringBuilder rules = new StringBuilder("groups:\n  - name: dashboard\n    rules:\n");
    for (int i = 0; i < exprs.size(); i++) {
      rules.append("      - record: dashboard:query").append(i).append('\n')
          .append("        expr: '").append(exprs.get(i).replace("'", "''")).append("'\n");
    }
    Path file = Files.writeString(tmp.resolve("dashboard-queries.yml"), rules);
    String out = promtool(file);
    assertTrue(out.contains("SUCCESS: " + exprs.size() + " rules found"), out);
  }
}
