package org.coalition.daemon;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.coalition.coordination.JobSpec;
import org.coalition.handler.Accounts;
import org.coalition.handler.PilotSpec;
import org.coalition.policy.fairness.Utility;
import org.coalition.staging.StagingLimits;

/**
 * What one site's broker decides with: when its own jobs go out, how much foreign work it takes,
 * and who runs it. Built from the site file ({@code site-config}) or by the demo.
 *
 * @param exposureThreshold pilots are submitted only while the reservation ratio is under it (DESIGN.md: 0.7)
 * @param participation declared participation level l, core-seconds per balancing period
 * @param utility the DirectContr utility that ranks home sites
 * @param accounts local account per home site; {@code defaultAccount} for the others (empty: refuse them)
 * @param publishAfter how long an opted-in job waits for local room before it is published
 * @param pilotPendingLimit a pilot still pending after this long is cancelled
 * @param heartbeat how often a running pilot reports; a claim is lost after several misses
 * @param maxPendingPilots most pilots waiting in the local queue at once
 * @param pilotCommand what a pilot job runs on the node: {@code coalition pilot}, by a path the
 *     nodes know (the site file's {@code pilots.command})
 * @param pilotGrace how long a pilot rides out this daemon's absence (a restart) before it gives
 *     its run up: the session timeout and the homes' restart grace, and a margin
 * @param staging how many bytes of files a job takes with it or brings back, and this site keeps at once
 * @param multiNode whether this site runs jobs of several nodes: their pilots' scratch folder is on a
 *     file system every node sees, where the job's {@code srun} steps find their working folder
 * @param identities the identity domains this site declares: which foreign jobs run as their own
 *     user, and in their home's directory ({@link IdentityDomains#NONE}: none)
 * @param reuse how pilots run more than one job and wait for work ({@link PilotReuse#NONE}: one job each)
 * @param pilotOutput the folder on the nodes where each pilot's batch output goes (empty: not kept)
 * @param batchSystemEvicts whether the batch system's own preemption takes cores back from pilots
 *     for local users (the site file's {@code sharing.eviction: batch-system}); the daemon then
 *     evicts nothing ({@link Eviction})
 */
public record BrokerSettings(
    String site,
    String endpoint,
    double exposureThreshold,
    double participation,
    Utility utility,
    Map<String, String> accounts,
    String defaultAccount,
    String pilotPartition,
    Duration publishAfter,
    Duration pilotPendingLimit,
    Duration heartbeat,
    int maxPendingPilots,
    List<String> pilotCommand,
    Duration pilotGrace,
    StagingLimits staging,
    boolean multiNode,
    IdentityDomains identities,
    PilotReuse reuse,
    String pilotOutput,
    boolean batchSystemEvicts) {
  /** What a pilot rides out when the site file says nothing else: 15 s of session, 60 s of restart grace, and a margin. */
  public static final Duration PILOT_GRACE = Duration.ofMinutes(2);

  /** Settings whose pilots ride out {@link #PILOT_GRACE}. */
  public BrokerSettings(String site, String endpoint, double exposureThreshold, double participation, Utility utility, Map<String, String> accounts,
      String defaultAccount, String pilotPartition, Duration publishAfter, Duration pilotPendingLimit, Duration heartbeat, int maxPendingPilots,
      List<String> pilotCommand) {
    this(site, endpoint, exposureThreshold, participation, utility, accounts, defaultAccount, pilotPartition, publishAfter, pilotPendingLimit,
        heartbeat, maxPendingPilots, pilotCommand, PILOT_GRACE);
  }

  /** Settings with the default staging limits ({@link StagingLimits#DEFAULT}). */
  public BrokerSettings(String site, String endpoint, double exposureThreshold, double participation, Utility utility, Map<String, String> accounts,
      String defaultAccount, String pilotPartition, Duration publishAfter, Duration pilotPendingLimit, Duration heartbeat, int maxPendingPilots,
      List<String> pilotCommand, Duration pilotGrace) {
    this(site, endpoint, exposureThreshold, participation, utility, accounts, defaultAccount, pilotPartition, publishAfter, pilotPendingLimit,
        heartbeat, maxPendingPilots, pilotCommand, pilotGrace, StagingLimits.DEFAULT);
  }

  /** Settings of a site that runs no job of several nodes. */
  public BrokerSettings(String site, String endpoint, double exposureThreshold, double participation, Utility utility, Map<String, String> accounts,
      String defaultAccount, String pilotPartition, Duration publishAfter, Duration pilotPendingLimit, Duration heartbeat, int maxPendingPilots,
      List<String> pilotCommand, Duration pilotGrace, StagingLimits staging) {
    this(site, endpoint, exposureThreshold, participation, utility, accounts, defaultAccount, pilotPartition, publishAfter, pilotPendingLimit,
        heartbeat, maxPendingPilots, pilotCommand, pilotGrace, staging, false);
  }

  /** Settings of a site in no identity domain. */
  public BrokerSettings(String site, String endpoint, double exposureThreshold, double participation, Utility utility, Map<String, String> accounts,
      String defaultAccount, String pilotPartition, Duration publishAfter, Duration pilotPendingLimit, Duration heartbeat, int maxPendingPilots,
      List<String> pilotCommand, Duration pilotGrace, StagingLimits staging, boolean multiNode) {
    this(site, endpoint, exposureThreshold, participation, utility, accounts, defaultAccount, pilotPartition, publishAfter, pilotPendingLimit,
        heartbeat, maxPendingPilots, pilotCommand, pilotGrace, staging, multiNode, IdentityDomains.NONE);
  }

  /** Settings whose pilots run one job each ({@link PilotReuse#NONE}). */
  public BrokerSettings(String site, String endpoint, double exposureThreshold, double participation, Utility utility, Map<String, String> accounts,
      String defaultAccount, String pilotPartition, Duration publishAfter, Duration pilotPendingLimit, Duration heartbeat, int maxPendingPilots,
      List<String> pilotCommand, Duration pilotGrace, StagingLimits staging, boolean multiNode, IdentityDomains identities) {
    this(site, endpoint, exposureThreshold, participation, utility, accounts, defaultAccount, pilotPartition, publishAfter, pilotPendingLimit,
        heartbeat, maxPendingPilots, pilotCommand, pilotGrace, staging, multiNode, identities, PilotReuse.NONE);
  }

  /** Settings whose pilots' batch output is not kept. */
  public BrokerSettings(String site, String endpoint, double exposureThreshold, double participation, Utility utility, Map<String, String> accounts,
      String defaultAccount, String pilotPartition, Duration publishAfter, Duration pilotPendingLimit, Duration heartbeat, int maxPendingPilots,
      List<String> pilotCommand, Duration pilotGrace, StagingLimits staging, boolean multiNode, IdentityDomains identities, PilotReuse reuse) {
    this(site, endpoint, exposureThreshold, participation, utility, accounts, defaultAccount, pilotPartition, publishAfter, pilotPendingLimit,
        heartbeat, maxPendingPilots, pilotCommand, pilotGrace, staging, multiNode, identities, reuse, "");
  }

  /** Settings whose daemon evicts for local users. */
  public BrokerSettings(String site, String endpoint, double exposureThreshold, double participation, Utility utility, Map<String, String> accounts,
      String defaultAccount, String pilotPartition, Duration publishAfter, Duration pilotPendingLimit, Duration heartbeat, int maxPendingPilots,
      List<String> pilotCommand, Duration pilotGrace, StagingLimits staging, boolean multiNode, IdentityDomains identities, PilotReuse reuse,
      String pilotOutput) {
    this(site, endpoint, exposureThreshold, participation, utility, accounts, defaultAccount, pilotPartition, publishAfter, pilotPendingLimit,
        heartbeat, maxPendingPilots, pilotCommand, pilotGrace, staging, multiNode, identities, reuse, pilotOutput, false);
  }

  /** These settings with pilots reused as {@code r} says. */
  public BrokerSettings withReuse(PilotReuse r) {
    return new BrokerSettings(site, endpoint, exposureThreshold, participation, utility, accounts, defaultAccount, pilotPartition, publishAfter,
        pilotPendingLimit, heartbeat, maxPendingPilots, pilotCommand, pilotGrace, staging, multiNode, identities, r, pilotOutput,
        batchSystemEvicts);
  }

  /** These settings with each pilot's batch output kept in {@code folder} on the nodes (empty: not kept). */
  public BrokerSettings withPilotOutput(String folder) {
    return new BrokerSettings(site, endpoint, exposureThreshold, participation, utility, accounts, defaultAccount, pilotPartition, publishAfter,
        pilotPendingLimit, heartbeat, maxPendingPilots, pilotCommand, pilotGrace, staging, multiNode, identities, reuse, folder,
        batchSystemEvicts);
  }

  /** These settings with the batch system's own preemption evicting for local users ({@code true}) or the daemon. */
  public BrokerSettings withBatchSystemEviction(boolean byBatchSystem) {
    return new BrokerSettings(site, endpoint, exposureThreshold, participation, utility, accounts, defaultAccount, pilotPartition, publishAfter,
        pilotPendingLimit, heartbeat, maxPendingPilots, pilotCommand, pilotGrace, staging, multiNode, identities, reuse, pilotOutput,
        byBatchSystem);
  }

  /** Where pilot {@code id}'s batch output goes: {@code coalition-pilot-ID.out} in {@link #pilotOutput}, or nowhere. */
  public String pilotOutputFile(String id) {
    return pilotOutput.isEmpty() ? PilotSpec.DISCARD : pilotOutput + "/coalition-pilot-" + id + ".out";
  }

  public BrokerSettings {
    JobSpec.requireId("site", site);
    Objects.requireNonNull(endpoint, "endpoint");
    if (!(exposureThreshold > 0 && exposureThreshold <= 1)) {
      throw new IllegalArgumentException("exposure threshold must be in (0, 1], was " + exposureThreshold);
    }
    if (!(participation >= 0) || Double.isInfinite(participation)) {
      throw new IllegalArgumentException("participation level must be finite and >= 0, was " + participation);
    }
    accounts = Map.copyOf(accounts);
    accounts.values().forEach(BrokerSettings::requireAccount);
    if (!defaultAccount.isEmpty()) {
      requireAccount(defaultAccount);
    }
    if (maxPendingPilots < 1) {
      throw new IllegalArgumentException("at most pending pilots must be >= 1, was " + maxPendingPilots);
    }
    Objects.requireNonNull(pilotOutput, "pilotOutput");
    pilotCommand = List.copyOf(pilotCommand);
    if (pilotCommand.isEmpty()) {
      throw new IllegalArgumentException("the pilot command must not be empty (e.g. [coalition, pilot])");
    }
    if (pilotGrace.toMillis() < 100 || pilotGrace.toMillis() > 999_999_999) {
      throw new IllegalArgumentException("a pilot's grace must be between 100 ms and 11 days, was " + pilotGrace);
    }
    Objects.requireNonNull(staging, "staging");
    Objects.requireNonNull(identities, "identities");
    Objects.requireNonNull(reuse, "reuse");
  }

  private static void requireAccount(String account) {
    if (!Accounts.isUnprivileged(account)) {
      throw new IllegalArgumentException("account '" + account + "' is not an unprivileged local user name (foreign jobs never run as root)");
    }
  }

  /**
   * The local account that runs {@code job} here, if any: its own user when an identity domain of
   * this site grants it ({@link IdentityDomains#userFor}), otherwise its home's pool account.
   */
  public Optional<String> accountFor(JobSpec job) {
    return identities.userFor(job).or(() -> accountFor(job.home()));
  }

  /**
   * Whether {@code job}'s nodes can all find its working folder here: it has one node, or this
   * site's pilots work on a file system every node sees, or it runs in place in a shared directory.
   */
  public boolean spreads(JobSpec job) {
    return job.layout().nodes() == 1 || multiNode || identities.placeFor(job).isPresent();
  }

  /**
   * Whether this site takes {@code job}'s inputs: none, in place (an identity domain shares its
   * folder), or no more than this site's own {@code staging.max-job}. The home's word on the size
   * bounds nothing here: a job declaring 1 TiB had an executor write three times its own limit.
   */
  public boolean takesInputsOf(JobSpec job) {
    return !job.inputs().any() || identities.placeFor(job).isPresent() || job.inputs().bytes() <= staging.maxJobBytes();
  }

  /** The local account that runs {@code home}'s jobs here, if any. */
  public Optional<String> accountFor(String home) {
    String a = accounts.getOrDefault(home, defaultAccount);
    return a.isEmpty() ? Optional.empty() : Optional.of(a);
  }
}
