package org.coalition.daemon.base;

import java.time.Duration;
import java.util.LinkedHashMap;
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
 * and who runs it. Built from the site file ({@code site-config}) or by the demo, through
 * {@link #builder}.
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
 *     evicts nothing ({@link org.coalition.daemon.executor.Eviction})
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
  /**
   * Settings of site {@code site} to fill in: the only way to make them but the canonical
   * constructor, so a caller names what it sets and a new setting is one method here, not a
   * constructor more. It has no defaults ({@link Builder}).
   */
  public static Builder builder(String site) {
    return new Builder(site);
  }

  /** A builder holding these settings, to change some of them. */
  public Builder toBuilder() {
    Builder b = new Builder(site);
    b.endpoint = endpoint;
    b.exposureThreshold = exposureThreshold;
    b.participation = participation;
    b.utility = utility;
    b.accounts = accounts;
    b.defaultAccount = defaultAccount;
    b.pilotPartition = pilotPartition;
    b.publishAfter = publishAfter;
    b.pilotPendingLimit = pilotPendingLimit;
    b.heartbeat = heartbeat;
    b.maxPendingPilots = maxPendingPilots;
    b.pilotCommand = pilotCommand;
    b.pilotGrace = pilotGrace;
    b.staging = staging;
    b.multiNode = multiNode;
    b.identities = identities;
    b.reuse = reuse;
    b.pilotOutput = pilotOutput;
    b.batchSystemEvicts = batchSystemEvicts;
    return b;
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

  /**
   * {@link BrokerSettings} filled in by name ({@link BrokerSettings#builder}). It has no defaults:
   * a site's settings come from its site file, whose defaults are {@code site-config}'s alone
   * (docs/site-file.md), through {@code cli}'s {@code SiteSettings} for the daemon, {@code trial}
   * and the demo; {@link #build} names every value left unset.
   */
  public static final class Builder {
    private final String site;
    private String endpoint;
    private Double exposureThreshold;
    private Double participation;
    private Utility utility;
    private Map<String, String> accounts;
    private String defaultAccount;
    private String pilotPartition;
    private Duration publishAfter;
    private Duration pilotPendingLimit;
    private Duration heartbeat;
    private Integer maxPendingPilots;
    private List<String> pilotCommand;
    private Duration pilotGrace;
    private StagingLimits staging;
    private Boolean multiNode;
    private IdentityDomains identities;
    private PilotReuse reuse;
    private String pilotOutput;
    private Boolean batchSystemEvicts;

    private Builder(String site) {
      this.site = site;
    }

    /** Where peers fetch this site's outputs ({@code https://host:port/}, {@code local:NAME} in one process, empty: none). */
    public Builder endpoint(String e) {
      endpoint = e;
      return this;
    }

    public Builder exposureThreshold(double t) {
      exposureThreshold = t;
      return this;
    }

    public Builder participation(double level) {
      participation = level;
      return this;
    }

    public Builder utility(Utility u) {
      utility = u;
      return this;
    }

    /** The local account of each home site's jobs, and {@code fallback} for any other home (empty: refuse them). */
    public Builder accounts(Map<String, String> byHome, String fallback) {
      accounts = byHome;
      defaultAccount = fallback;
      return this;
    }

    public Builder pilotPartition(String partition) {
      pilotPartition = partition;
      return this;
    }

    public Builder publishAfter(Duration d) {
      publishAfter = d;
      return this;
    }

    public Builder pilotPendingLimit(Duration d) {
      pilotPendingLimit = d;
      return this;
    }

    public Builder heartbeat(Duration d) {
      heartbeat = d;
      return this;
    }

    public Builder maxPendingPilots(int n) {
      maxPendingPilots = n;
      return this;
    }

    public Builder pilotCommand(List<String> command) {
      pilotCommand = command;
      return this;
    }

    public Builder pilotGrace(Duration d) {
      pilotGrace = d;
      return this;
    }

    public Builder staging(StagingLimits limits) {
      staging = limits;
      return this;
    }

    public Builder multiNode(boolean runsThem) {
      multiNode = runsThem;
      return this;
    }

    public Builder identities(IdentityDomains domains) {
      identities = domains;
      return this;
    }

    public Builder reuse(PilotReuse r) {
      reuse = r;
      return this;
    }

    /** The folder on the nodes for each pilot's batch output (empty: not kept). */
    public Builder pilotOutput(String folder) {
      pilotOutput = folder;
      return this;
    }

    /** Whether the batch system's own preemption evicts for local users ({@code true}) or the daemon. */
    public Builder batchSystemEvicts(boolean byBatchSystem) {
      batchSystemEvicts = byBatchSystem;
      return this;
    }

    /**
     * The settings; IllegalStateException naming the values left unset, IllegalArgumentException
     * naming the first value out of its range.
     */
    public BrokerSettings build() {
      Map<String, Object> values = new LinkedHashMap<>();
      values.put("endpoint", endpoint);
      values.put("exposureThreshold", exposureThreshold);
      values.put("participation", participation);
      values.put("utility", utility);
      values.put("accounts", accounts);
      values.put("pilotPartition", pilotPartition);
      values.put("publishAfter", publishAfter);
      values.put("pilotPendingLimit", pilotPendingLimit);
      values.put("heartbeat", heartbeat);
      values.put("maxPendingPilots", maxPendingPilots);
      values.put("pilotCommand", pilotCommand);
      values.put("pilotGrace", pilotGrace);
      values.put("staging", staging);
      values.put("multiNode", multiNode);
      values.put("identities", identities);
      values.put("reuse", reuse);
      values.put("pilotOutput", pilotOutput);
      values.put("batchSystemEvicts", batchSystemEvicts);
      List<String> unset = values.entrySet().stream().filter(e -> e.getValue() == null).map(Map.Entry::getKey).toList();
      if (!unset.isEmpty()) {
        throw new IllegalStateException("the settings of site " + site + " leave " + String.join(", ", unset) + " unset: a site's settings"
            + " come from its site file (cli's SiteSettings), which has a value for each");
      }
      return new BrokerSettings(site, endpoint, exposureThreshold, participation, utility, accounts, defaultAccount, pilotPartition,
          publishAfter, pilotPendingLimit, heartbeat, maxPendingPilots, pilotCommand, pilotGrace, staging, multiNode, identities, reuse,
          pilotOutput, batchSystemEvicts);
    }
  }
}
