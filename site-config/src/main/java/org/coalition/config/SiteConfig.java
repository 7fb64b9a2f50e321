package org.coalition.config;

import com.fasterxml.jackson.annotation.JsonIgnore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.coalition.handler.HandlerSettings;
import org.coalition.handler.IdentityDomain;
import org.coalition.policy.fairness.Utility;

/**
 * One site's configuration, as read from its YAML site file by {@link SiteConfigReader}: every
 * value typed and checked. docs/site-file.md describes each key with its default. Each
 * {@code handlers:} entry is read by its batch system's {@link org.coalition.handler.HandlerFactory}
 * into that module's own settings record.
 *
 * @param identityDomains the identity domains this site declares ({@code identity-domains}; empty: none)
 * @param contracts what it may trade in the capacity market ({@code contracts}; {@link ContractsSettings#NONE}: nothing)
 * @param logging the daemon's log: the level of Coalition's own loggers, and text or JSON lines
 * @param places where the keys naming files are in the file read ({@link #where})
 */
public record SiteConfig(
    String site,
    Federation federation,
    List<HandlerSettings> handlers,
    Map<String, String> accounts,
    Sharing sharing,
    Pilots pilots,
    Http http,
    Staging staging,
    Path spool,
    List<IdentityDomain> identityDomains,
    ContractsSettings contracts,
    LogSettings logging,
    @JsonIgnore Map<String, String> places) {

  /**
   * Where {@code key} ({@code federation.identity}, {@code http.operator-token-file}, {@code http.tls},
   * {@code http.port}, {@code spool}, each {@code accounts.HOME} and each key of a {@code handlers[i]}
   * entry, e.g. {@code handlers[0].jwt-key}) is written in the file read, {@code FILE:LINE: KEY}, for problems with what it
   * names found after reading ({@code SiteChecks}); the key alone for a config made otherwise.
   */
  public String where(String key) {
    return places.getOrDefault(key, key);
  }

  /**
   * This configuration, its problems reported where {@code original}'s file writes each key: a
   * trial's copy of a site file, whose other values are the user's, names the user's file.
   */
  public SiteConfig placedAs(SiteConfig original) {
    return new SiteConfig(site, federation, handlers, accounts, sharing, pilots, http, staging, spool, identityDomains, contracts,
        logging, original.places);
  }

  /** The daemon's log ({@code logging}): Coalition's own loggers at {@code level}, each event a line of text or a JSON object. */
  public record LogSettings(Level level, Format format) {
    public static final LogSettings DEFAULT = new LogSettings(Level.INFO, Format.TEXT);

    /** Logback's levels, from the least to the most said. */
    public enum Level { ERROR, WARN, INFO, DEBUG, TRACE }

    public enum Format { TEXT, JSON }
  }

  /**
   * What is allowed but unwise, for {@code config check} and the daemon's start: an account that
   * runs the jobs of several home sites ({@code "*"} counts as every other site) lets one home's
   * jobs read another's files and processes.
   */
  public List<String> warnings() {
    Map<String, List<String>> homesByAccount = new TreeMap<>();
    accounts.forEach((home, account) -> homesByAccount.computeIfAbsent(account, a -> new ArrayList<>()).add(home));
    List<String> out = new ArrayList<>();
    homesByAccount.forEach((account, homes) -> {
      if (homes.size() > 1 || homes.contains("*")) {
        out.add("accounts: '" + account + "' runs the jobs of " + (homes.contains("*") ? "every other site" : "sites " + homes)
            + ": one home's jobs can read another's files and processes there; map each home site to its own account (docs/security.md)");
      }
    });
    return out;
  }

  /**
   * How the site reaches its federation's ZooKeeper ensemble (over TLS) and who it is there.
   *
   * @param identity the site's key store (its key and the certificate the federation's CA issued), password in {@code IDENTITY.password}
   * @param trust the federation's trust store (the CA's certificate), password in {@code TRUST.password}
   * @param restartGrace how long this site, as a home, keeps a claim whose executor's session ended
   *     before requeueing the job: a restarted executor takes its claims back within it
   */
  public record Federation(String name, String zookeeper, Path identity, Path trust, Duration sessionTimeout, Duration restartGrace) {
    public static final Duration RESTART_GRACE = Duration.ofSeconds(60);
  }

  /**
   * How much the site shares, and how it picks whom to serve; {@code eviction}, who takes cores
   * back from foreign runs when local users want them (docs/jobs.md, "When the other site wants its
   * cores back").
   */
  public record Sharing(double exposureThreshold, double participation, Duration balancingPeriod, Policy policy, Utility utility,
      Duration publishAfter, Eviction eviction) {}

  /** Pilot jobs: where they go and how they are kept in check. */
  /**
   * The files jobs take with them and bring back (docs/jobs.md, "Files"): at most
   * {@code maxJobBytes} per job each way, and {@code maxSiteBytes} kept at once for all jobs.
   */
  public record Staging(long maxJobBytes, long maxSiteBytes) {
    public static final Staging DEFAULT = new Staging(1L << 30, 10L << 30);
  }

  /**
   * How pilots are submitted and kept: {@code idleExit}, how long a pilot waits for more work after
   * its last job (0: it exits at once); {@code extraTime}, what it asks beyond its first job's time
   * limit so that it can run more jobs one after another; {@code output}, the folder on the nodes
   * where each pilot's batch output goes (none kept without it) (docs/site-file.md, "pilots").
   */
  public record Pilots(String partition, Duration pendingLimit, Duration heartbeat, int maxPending, List<String> command, boolean multiNode,
      Duration idleExit, Duration extraTime, Optional<Path> output) {
    public static final Duration IDLE_EXIT = Duration.ofSeconds(10);
    public static final Duration EXTRA_TIME = Duration.ofMinutes(5);

    /** Pilots whose batch output is not kept. */
    public Pilots(String partition, Duration pendingLimit, Duration heartbeat, int maxPending, List<String> command, boolean multiNode,
        Duration idleExit, Duration extraTime) {
      this(partition, pendingLimit, heartbeat, maxPending, command, multiNode, idleExit, extraTime, Optional.empty());
    }
  }

  /**
   * The daemon's HTTP API. Without {@code tls} it serves plain HTTP, which the reader allows only
   * on loopback. {@code url} is where pilots and peers reach it (ends in '/'). With {@code unmunge}
   * (the command that decodes a MUNGE credential), a user on another host of the cluster reads
   * their own jobs.
   */
  public record Http(String bind, int port, Optional<Tls> tls, Path operatorTokenFile, String url, Optional<List<String>> unmunge) {
    /** An API without users from other hosts. */
    public Http(String bind, int port, Optional<Tls> tls, Path operatorTokenFile, String url) {
      this(bind, port, tls, operatorTokenFile, url, Optional.empty());
    }
  }

  public record Tls(Path keystore, Path passwordFile) {}

  /** The job-selection policy; the daemon implements DirectContr (FairShare and RoundRobin are the simulator's baselines). */
  public enum Policy { DIRECT_CONTR }

  /**
   * Who evicts foreign runs for local users: the daemon (the homes of the lowest DirectContr
   * priority first), or the batch system's own preemption of the pilots' partition (in its own
   * order), the daemon then evicting nothing.
   */
  public enum Eviction { DAEMON, BATCH_SYSTEM }
}
