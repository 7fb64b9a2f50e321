package org.coalition.cli;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.coalition.config.SiteConfig;
import org.coalition.daemon.base.BrokerSettings;
import org.coalition.daemon.base.IdentityDomains;
import org.coalition.daemon.base.PilotReuse;
import org.coalition.staging.StagingLimits;

/**
 * A site file's settings for its broker: the one way {@code daemon} (and so {@code trial}, which
 * runs it) and {@code demo} make {@link BrokerSettings}, so that a site file's defaults, {@code
 * site-config}'s ({@code SiteConfigReader}, docs/site-file.md), are the only ones.
 */
final class SiteSettings {
  private SiteSettings() {}

  /**
   * The broker's settings from site file {@code c}: peers fetch outputs at {@code endpoint}, and
   * pilots run {@code pilotCommand} (the file's {@code pilots.command}, or the command of a batch
   * system that runs its pilots in this process).
   */
  static BrokerSettings of(SiteConfig c, String endpoint, List<String> pilotCommand) {
    Map<String, String> byHome = c.accounts().entrySet().stream().filter(e -> !e.getKey().equals("*"))
        .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    return BrokerSettings.builder(c.site()).endpoint(endpoint).exposureThreshold(c.sharing().exposureThreshold())
        .participation(c.sharing().participation()).utility(c.sharing().utility()).accounts(byHome, c.accounts().getOrDefault("*", ""))
        .pilotPartition(c.pilots().partition()).publishAfter(c.sharing().publishAfter()).pilotPendingLimit(c.pilots().pendingLimit())
        .heartbeat(c.pilots().heartbeat()).maxPendingPilots(c.pilots().maxPending()).pilotCommand(pilotCommand)
        .pilotGrace(pilotGrace(c.federation())).staging(new StagingLimits(c.staging().maxJobBytes(), c.staging().maxSiteBytes()))
        .multiNode(c.pilots().multiNode()).identities(IdentityDomains.of(c.site(), c.identityDomains()))
        .reuse(new PilotReuse(c.pilots().idleExit(), c.pilots().extraTime())).pilotOutput(c.pilots().output().map(Path::toString).orElse(""))
        .batchSystemEvicts(c.sharing().eviction() == SiteConfig.Eviction.BATCH_SYSTEM).build();
  }

  /**
   * How long a pilot rides out its daemon's absence: the ZooKeeper session's timeout and the
   * homes' restart grace (after which its claim may be requeued), and half a minute for the
   * restarted daemon to take its claims back.
   */
  static Duration pilotGrace(SiteConfig.Federation f) {
    return f.sessionTimeout().plus(f.restartGrace()).plusSeconds(30);
  }
}
