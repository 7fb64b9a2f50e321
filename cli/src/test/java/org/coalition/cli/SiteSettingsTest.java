package org.coalition.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.coalition.config.SiteConfigReader;
import org.coalition.daemon.base.BrokerSettings;
import org.coalition.daemon.base.PilotReuse;
import org.coalition.policy.fairness.Utility;
import org.coalition.staging.StagingLimits;
import org.junit.jupiter.api.Test;

/** The broker's settings come from the site file alone: a bare file gives docs/site-file.md's defaults, and each key set is taken. */
class SiteSettingsTest {
  private static final String BARE = """
      site: north
      federation:
        name: fed
        zookeeper: zk1:2281
        identity: /etc/coalition/north.p12
        trust: /etc/coalition/trust.p12
      handlers:
        - type: local
          cores: 4
      accounts:
        south: fed-south
      http:
        operator-token-file: /etc/coalition/operator.token
      """;

  @Test
  void aSiteFileThatSaysLittleGivesTheDocumentedDefaults() {
    BrokerSettings s = SiteSettings.of(SiteConfigReader.parse("north.yaml", BARE), "https://north:8443/", List.of("coalition", "pilot"));
    assertEquals("north", s.site());
    assertEquals("https://north:8443/", s.endpoint());
    assertEquals(0.7, s.exposureThreshold());
    assertEquals(7200, s.participation());
    assertEquals(Utility.ORIG, s.utility());
    assertEquals(Map.of("south", "fed-south"), s.accounts());
    assertEquals("", s.defaultAccount(), "no '*': other homes' jobs are refused");
    assertEquals(Duration.ofSeconds(30), s.publishAfter());
    assertEquals(Duration.ofMinutes(10), s.pilotPendingLimit());
    assertEquals(Duration.ofSeconds(30), s.heartbeat());
    assertEquals(16, s.maxPendingPilots());
    assertEquals(Duration.ofSeconds(15 + 60 + 30), s.pilotGrace(), "session timeout, restart grace and half a minute");
    assertEquals(StagingLimits.DEFAULT.maxJobBytes(), s.staging().maxJobBytes());
    assertFalse(s.multiNode());
    assertFalse(s.reuse().equals(PilotReuse.NONE), "pilots are reused by default");
    assertEquals("", s.pilotOutput());
    assertFalse(s.batchSystemEvicts());
  }

  @Test
  void whatTheFileSetsIsWhatTheBrokerGets() {
    String file = BARE.replace("accounts:\n  south: fed-south\n", "accounts:\n  '*': fed-any\n") + """
        sharing:
          exposure-threshold: 0.5
          participation: 3600
          utility: SIMPL
          publish-after: 500ms
          eviction: batch-system
        pilots:
          heartbeat: 5s
          max-pending: 3
          pending-limit: 1m
          idle-exit: 0s
          extra-time: 0s
        """;
    BrokerSettings s = SiteSettings.of(SiteConfigReader.parse("north.yaml", file), "", List.of("/usr/bin/coalition", "pilot"));
    assertEquals(0.5, s.exposureThreshold());
    assertEquals(3600, s.participation());
    assertEquals(Utility.SIMPL, s.utility());
    assertEquals("fed-any", s.defaultAccount());
    assertEquals(Duration.ofMillis(500), s.publishAfter());
    assertEquals(Duration.ofSeconds(5), s.heartbeat());
    assertEquals(3, s.maxPendingPilots());
    assertEquals(Duration.ofMinutes(1), s.pilotPendingLimit());
    assertEquals(List.of("/usr/bin/coalition", "pilot"), s.pilotCommand());
    assertEquals(PilotReuse.NONE, s.reuse());
    assertEquals(true, s.batchSystemEvicts());
  }
}
