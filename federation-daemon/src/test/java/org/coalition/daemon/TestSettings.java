package org.coalition.daemon;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.coalition.daemon.base.BrokerSettings;
import org.coalition.daemon.base.IdentityDomains;
import org.coalition.daemon.base.PilotReuse;
import org.coalition.policy.fairness.Utility;
import org.coalition.staging.StagingLimits;

/**
 * Settings for this module's tests. {@link BrokerSettings} has no defaults (a site's come from its
 * site file: cli's {@code SiteSettings}), so a test starts from the values written out here and
 * sets what it is about. They are those of a site file that names only the site (docs/site-file.md;
 * cli's {@code SiteSettingsTest} checks the product's side), but for two that most tests here are
 * written for: pilots run one job each ({@link PilotReuse#NONE}) and ride out 2 minutes.
 */
public final class TestSettings {
  private TestSettings() {}

  /** Such settings of {@code site}, with no endpoint and no account: to fill in. */
  public static BrokerSettings.Builder builder(String site) {
    return BrokerSettings.builder(site).endpoint("").exposureThreshold(0.7).participation(7200).utility(Utility.ORIG)
        .accounts(Map.of(), "").pilotPartition("").publishAfter(Duration.ofSeconds(30)).pilotPendingLimit(Duration.ofMinutes(10))
        .heartbeat(Duration.ofSeconds(30)).maxPendingPilots(16).pilotCommand(List.of("coalition", "pilot"))
        .pilotGrace(Duration.ofMinutes(2)).staging(StagingLimits.DEFAULT).multiNode(false).identities(IdentityDomains.NONE)
        .reuse(PilotReuse.NONE).pilotOutput("").batchSystemEvicts(false);
  }
}
