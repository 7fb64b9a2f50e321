package org.coalition.daemon;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.coalition.coordination.Coordination;
import org.coalition.coordination.SiteInfo;
import org.coalition.coordination.SiteStatus;
import org.coalition.daemon.base.BoughtSlots;
import org.coalition.daemon.base.BrokerMetrics;
import org.coalition.daemon.base.BrokerSettings;
import org.coalition.daemon.base.Contain;
import org.coalition.daemon.base.Decisions;
import org.coalition.daemon.base.OperatorSettings;
import org.coalition.daemon.base.PeriodBudget;
import org.coalition.daemon.base.SoldSlots;
import org.coalition.daemon.executor.ExecutorSide;
import org.coalition.daemon.executor.Pilot;
import org.coalition.daemon.executor.PilotJournal;
import org.coalition.daemon.executor.PilotTokens;
import org.coalition.daemon.executor.Pilots;
import org.coalition.daemon.home.FinishedJob;
import org.coalition.daemon.home.HomeSide;
import org.coalition.daemon.home.ParkJournal;
import org.coalition.daemon.outputs.OutputFetch;
import org.coalition.daemon.outputs.PeerDownload;
import org.coalition.daemon.outputs.RunOutputs;
import org.coalition.daemon.pilot.PilotService;
import org.coalition.handler.HandlerException;
import org.coalition.handler.HomeQueue;
import org.coalition.handler.QueueObservation;
import org.coalition.handler.ResourceHandler;
import org.coalition.policy.text.Numbers;
import org.coalition.staging.InputPacker;
import org.coalition.staging.StagingLimits;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One site's broker: each {@link #tick()} observes the local batch system and handles the events
 * of DESIGN.md in order, and pilots call it through {@link PilotService}.
 *
 * <ol>
 *   <li>A local job opts in: it stays home while there is room; once it has waited {@code publishAfter} with no room, it is
 *       parked and published, as far as the BILB send allowance of the current period goes (or a block this site bought for the
 *       slot open now, {@link BoughtSlots}). A published job still unclaimed when room appears here is withdrawn and runs at home.
 *   <li>Jobs appear in the federation queue (the coordination layer wakes the broker).
 *   <li>Local capacity is ready (reservation ratio under the exposure threshold, cores free, BILB receive allowance left): a
 *       pilot shaped like a waiting job goes into the local queue. When it starts it asks for work and DirectContr picks the job
 *       then (late binding).
 *   <li>A job ends: the pilot reports it, the result goes to the home site, which replays it in the user's parked job and folds
 *       it into the ledger.
 *   <li>A site leaves: the coordination layer requeues its claims; its pilots' heartbeats fail and they kill their runs.
 * </ol>
 *
 * Allowances are in core-seconds (cores times time limit); see {@link PeriodBudget} for how the last job of a period may pass them.
 *
 * <p>The pieces: {@link HomeSide} (events 1 and 4 at home), {@link ExecutorSide} (events 2 and 3, and the pilot protocol),
 * {@link PeriodBudget} (the BILB allowances of the period), with the pilot and the published job as state machines
 * ({@link org.coalition.daemon.executor.PilotLifecycle}, {@link org.coalition.daemon.home.PublishedJobLifecycle}). Every decision
 * goes through {@link Decisions}: one log line with its reason. Time (how long a job or a pilot has waited) comes from an injected {@link Clock}.
 */
public final class Broker implements PilotService, PilotTokens {
  private static final Logger LOG = LoggerFactory.getLogger(Broker.class);

  private final DaemonTls tls;
  private final BrokerSettings settings;
  private final Coordination coordination;
  private final ResourceHandler handler;
  private final RunOutputs outputs;
  private final Decisions decisions;
  private final PeriodBudget budget;
  private final HomeSide homeSide;
  private final ParkJournal parks;
  private final ExecutorSide executorSide;
  private final BrokerMetrics metrics;

  private final OperatorSettings operator;
  private final BatchHealth batch;
  private final Clock clock;
  private volatile QueueObservation last;
  private volatile boolean joined;
  private volatile long lastRoundMillis = -1;

  public Broker(BrokerSettings settings, Coordination coordination, ResourceHandler handler, Optional<HomeQueue> home, RunOutputs outputs) {
    this(settings, coordination, handler, home, outputs, Clock.systemUTC());
  }

  /** A broker whose waits ({@code publish-after}, a pilot's pending limit) are measured on {@code clock}. */
  public Broker(BrokerSettings settings, Coordination coordination, ResourceHandler handler, Optional<HomeQueue> home, RunOutputs outputs,
      Clock clock) {
    this(settings, coordination, handler, home, outputs, DaemonTls.NONE, clock);
  }

  /** A broker that fetches outputs over mutual TLS ({@code tls}): it shows its identity and accepts an output only from its executor's. */
  public Broker(BrokerSettings settings, Coordination coordination, ResourceHandler handler, Optional<HomeQueue> home, RunOutputs outputs,
      DaemonTls tls, Clock clock) {
    this(settings, coordination, handler, home, outputs, PilotJournal.NONE, ParkJournal.inMemory(), OperatorSettings.inMemory(), tls, clock);
  }

  /**
   * A broker that keeps its pilots in {@code journal} and its parks in {@code parks}, so that after a restart it takes the pilots back and their runs go on
   * (docs/decisions/0011-durable-work.md), tells its parks from administrators' holds, and keeps what an operator set at runtime in {@code operator} (its
   * participation level).
   */
  public Broker(BrokerSettings settings, Coordination coordination, ResourceHandler handler, Optional<HomeQueue> home, RunOutputs outputs,
      PilotJournal journal, ParkJournal parks, OperatorSettings operator, DaemonTls tls, Clock clock) {
    this.settings = settings;
    this.tls = tls;
    this.coordination = coordination;
    this.handler = handler;
    this.outputs = outputs;
    this.decisions = new Decisions(settings.site());
    this.operator = operator;
    this.budget = new PeriodBudget(settings.site());
    this.metrics = new BrokerMetrics(settings.site());
    this.batch = new BatchHealth(settings.site(), clock);
    this.clock = clock;
    PeerDownload download = PeerDownload.over(tls.outbound(), tls.peers());
    OutputFetch fetch = new OutputFetch(download, !outputs.servesHttp(), OutputFetch.TOTAL_TIME, outputs.sibling("incoming"),
        settings.staging().maxJobBytes());
    this.parks = parks;
    this.homeSide = new HomeSide(settings, coordination, home, decisions, budget, clock, fetch, metrics, parks,
        new InputPacker(outputs.sibling("inputs"), outputs.servesHttp() ? settings.staging() : StagingLimits.NONE));
    this.executorSide = new ExecutorSide(settings, coordination, handler, outputs, decisions, budget, journal, metrics, clock, download);
  }

  public BrokerSettings settings() {
    return settings;
  }

  /** The jobs this broker parked (tests play a daemon that died between a park and its publication). */
  ParkJournal parks() {
    return parks;
  }

  /** TLS between daemons, as this broker was given it. */
  public DaemonTls tls() {
    return tls;
  }

  public Decisions decisions() {
    return decisions;
  }

  /** The broker's histograms, for the metrics endpoint. */
  public BrokerMetrics metrics() {
    return metrics;
  }

  public Coordination coordination() {
    return coordination;
  }

  /** Where this daemon keeps the outputs of foreign runs until their home sites fetch them. */
  public RunOutputs outputs() {
    return outputs;
  }

  /** Whether {@link #start()} joined the federation. */
  public boolean joined() {
    return joined;
  }

  /** A round that began longer ago than this means the daemon hangs (rounds run every second; a batch system's call times out well before). */
  public static final Duration ROUND_STALLED = Duration.ofMinutes(2);

  /** Whether the daemon is alive: starting, or its last round began within {@link #ROUND_STALLED}. */
  public boolean alive() {
    return sinceLastRound().map(d -> d.compareTo(ROUND_STALLED) < 0).orElse(true);
  }

  /** How long ago the last round began; empty before the first. A round that hangs shows here. */
  public Optional<Duration> sinceLastRound() {
    long at = lastRoundMillis;
    return at < 0 ? Optional.empty() : Optional.of(Duration.ofMillis(clock.millis() - at));
  }

  /** Whether the local batch system answers, and the age of the last good observation. */
  public BatchHealth batchHealth() {
    return batch;
  }

  /** The last observation of the local batch system (empty before the first tick). */
  public Optional<QueueObservation> lastObservation() {
    return Optional.ofNullable(last);
  }

  /** The declared participation level: the one an operator set at runtime, else the site file's. */
  public double participation() {
    return operator.participation().map(OperatorSettings.Participation::level).orElse(settings.participation());
  }

  /** When an operator set the participation level in effect, if one did (else it is the site file's). */
  public Optional<Instant> participationSetAt() {
    return operator.participation().map(OperatorSettings.Participation::setAt);
  }

  /** Changes the declared participation level, kept in the spool first (a restart keeps it); announced with the next status. */
  public void setParticipation(double level) {
    if (!(level >= 0 && level <= SiteStatus.MAX_PARTICIPATION)) {
      throw new IllegalArgumentException("participation level must be in [0, " + Numbers.format(SiteStatus.MAX_PARTICIPATION) + "], was "
          + level);
    }
    String change = "level " + Numbers.format(participation()) + " -> " + Numbers.format(level);
    operator.participation(Optional.of(new OperatorSettings.Participation(level, clock.instant(), settings.participation())));
    decisions.record("participation", "site=" + settings.site(), "operator", change);
  }

  /** Pilots by state: pending (not asked yet), running (holding a claim), done. */
  public Map<String, Integer> pilotsByState() {
    return executorSide.pilots().countsByState();
  }

  /** This site's jobs that ended elsewhere, most recent last (bounded). */
  public Optional<FinishedJob> finished(String jobId) {
    return homeSide.finished(jobId);
  }

  /**
   * Joins the federation and recovers after a restart: this site's jobs still in the federation are tracked again, a job parked here but not published (a
   * crash between the two) is released to run at home, and the journaled pilots are taken back with their claims.
   */
  public synchronized void start() {
    QueueObservation obs = handler.observe();
    last = obs;
    batch.observed();
    coordination.join(new SiteInfo(settings.site(), settings.endpoint(), obs.totalCores()), status(obs));
    joined = true;
    homeSide.recover();
    executorSide.recover();
    LOG.info("site {} joined: {} cores, {} of its jobs in the federation, handler {}", settings.site(), obs.totalCores(),
        homeSide.publishedCount(), handler.describe());
  }

  /** One round of events: a batch system not observed skips the round; a step that fails is logged and counted, the next steps still run. */
  public synchronized void tick() {
    if (!joined) {
      throw new IllegalStateException("start() the broker before ticking it");
    }
    lastRoundMillis = clock.millis();
    QueueObservation obs;
    long observing = System.nanoTime();
    try {
      obs = handler.observe();
      metrics.observed((System.nanoTime() - observing) / 1e9);
      batch.observed();
    } catch (HandlerException e) {
      batch.failed(e.getMessage());
      return;
    }
    last = obs;
    // Each step on its own: one that fails (the store, the batch system, a peer's record) is
    // logged and counted, and the others still run this round.
    step("allowances", () -> budget.enter(coordination.allowances()));
    step("home round", () -> homeSide.round(obs));
    step("results", homeSide::results);
    step("pilots round", executorSide::pilotsRound);
    step("eviction", () -> executorSide.evictionRound(obs));
    step("pilot submission", () -> executorSide.submitRound(obs));
    step("status", () -> coordination.updateStatus(status(obs)));
  }

  private void step(String name, Runnable step) {
    long started = System.nanoTime();
    if (!Contain.run(LOG, settings.site(), name, step)) {
      metrics.stepFailed(name);
    }
    metrics.stepTook(name, (System.nanoTime() - started) / 1e9);
  }

  @Override
  public Optional<Assignment> work(String pilotId, String token) {
    return executorSide.work(pilotId, token);
  }

  @Override
  public void authenticate(String pilotId, String token) {
    executorSide.authenticate(pilotId, token);
  }

  @Override
  public boolean heartbeat(String pilotId, String token) {
    return executorSide.heartbeat(pilotId, token);
  }

  @Override
  public void finish(String pilotId, String token, RunOutcome outcome) {
    executorSide.finish(pilotId, token, outcome);
  }

  @Override
  public void inputs(String pilotId, String token, Path target) {
    executorSide.inputs(pilotId, token, target);
  }

  @Override
  public void files(String pilotId, String token, Path tar, String sha256) {
    executorSide.files(pilotId, token, tar, sha256);
  }

  /** Why this site's job {@code jobId} stays home for good (its inputs, its shape), if it does. */
  public Optional<String> whyHome(String jobId) {
    return homeSide.whyHome(jobId);
  }

  /** Who owns this site's job {@code jobId} (its batch system's word, while it knows the job): who may read how it went. */
  public Optional<String> owner(String jobId) {
    return homeSide.owner(jobId);
  }

  /** The inputs of this site's job {@code jobId}, for {@code site}: only while that site holds the job's claim. */
  public Optional<Path> inputsFor(String jobId, String site) {
    return homeSide.inputsFor(jobId, site, false);
  }

  /** The inputs of this site's job {@code jobId}, while any site holds its claim (the API's gate checked which). */
  public Optional<Path> claimedInputs(String jobId) {
    return homeSide.inputsFor(jobId, "", true);
  }

  /** The most bytes of files a run here may send back (none when this daemon serves no API to take them). */
  public long maxFilesBytes() {
    return executorSide.files().maxFilesBytes();
  }

  /** A name for a file on its way in, in this daemon's own folder (not made yet). */
  public Path incomingFile(String prefix) throws IOException {
    return outputs.incomingFile(prefix);
  }

  /** The files pilot {@code pilotId}'s run wrote, {@code length} bytes of {@code in} with SHA-256 {@code sha256}. */
  public void receiveFiles(String pilotId, String token, InputStream in, long length, String sha256) {
    Pilot p = executorSide.pilots().check(pilotId, token);
    p.claimed();
    executorSide.files().files(p.id, in, length, sha256);
  }

  /**
   * Starts draining (an operator's {@code coalition drain}): no more foreign work is taken, queued pilots are cancelled, running foreign jobs finish, this
   * site's own jobs go on. {@link #drained()} says when the daemon can exit without costing a run.
   */
  public void drain() {
    if (executorSide.draining()) {
      return;
    }
    executorSide.drain();
    decisions.record("drain", "site=" + settings.site(), "operator", executorSide.pilots().busy() + " foreign jobs running here finish;"
        + " no more are taken; pilots still queued are cancelled");
    executorSide.cancelPendingPilots();
  }

  public boolean draining() {
    return executorSide.draining();
  }

  /** The slots this site sold that are open now: the market desk keeps them from the contracts' notes, the executor side fills them. */
  public SoldSlots soldSlots() {
    return executorSide.sold();
  }

  /** The slots this site bought that are open now: the market desk keeps them from the contracts' notes, the home side publishes into them. */
  public BoughtSlots boughtSlots() {
    return homeSide.bought();
  }

  /** Foreign jobs still running here (pilots holding a job, or being given one). */
  public long foreignRunning() {
    return executorSide.pilots().busy();
  }

  /** Draining and no foreign job runs here any more: the daemon may exit. */
  public boolean drained() {
    return executorSide.draining() && executorSide.pilots().busy() == 0;
  }

  /** A clean stop begins: no pilot is handed work from now on (the stop could cut off the answer); running ones go on. */
  public void stopHandingOutWork() {
    executorSide.stopHandingOutWork();
  }

  /** Cancels this broker's pilots that have not asked for work yet (a clean stop); running ones go on. */
  public void cancelPendingPilots() {
    executorSide.cancelPendingPilots();
  }

  private SiteStatus status(QueueObservation obs) {
    // pending pilots wait in the local queue too; they are not this site's load
    double queue = Math.max(0, obs.pendingCoreSeconds() - Pilots.coreSeconds(executorSide.pilots().waiting()));
    int queued = executorSide.pilots().localJobsWaiting(obs);
    return new SiteStatus(settings.site(), obs.totalCores(), queue, queued, obs.reservationRatio(), participation());
  }
}
