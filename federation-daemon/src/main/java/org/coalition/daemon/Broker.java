package org.coalition.daemon;

import java.security.MessageDigest;
import java.security.SecureRandom;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.HexFormat;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.coalition.coordination.Allowances;
import org.coalition.coordination.Claim;
import org.coalition.coordination.Completed;
import org.coalition.coordination.Coordination;
import org.coalition.coordination.CoordinationException;
import org.coalition.coordination.FederatedJob;
import org.coalition.coordination.JobRef;
import org.coalition.coordination.JobSpec;
import org.coalition.coordination.RunResult;
import org.coalition.coordination.SiteInfo;
import org.coalition.coordination.SiteLedger;
import org.coalition.coordination.SiteStatus;
import org.coalition.handler.HandlerException;
import org.coalition.handler.HomeJob;
import org.coalition.handler.HomeQueue;
import org.coalition.handler.PilotHandle;
import org.coalition.handler.PilotSpec;
import org.coalition.handler.PilotState;
import org.coalition.handler.PilotStatus;
import org.coalition.handler.QueueObservation;
import org.coalition.handler.RemoteRun;
import org.coalition.handler.ResourceHandler;
import org.coalition.policy.fairness.DirectContrPolicy;
import org.coalition.policy.fairness.QueuedJob;
import org.coalition.policy.fairness.Selection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One site's broker: each {@link #tick()} observes the local batch system and handles the events
 * of DESIGN.md in order, and pilots call it through {@link PilotService}.
 *
 * <ol>
 *   <li>A local job opts in: it stays home while there is room; once it has waited
 *       {@code publishAfter} with no room, it is parked and published, as far as the BILB send
 *       allowance of the current period goes. A published job still unclaimed when room appears
 *       here is withdrawn and runs at home.
 *   <li>Jobs appear in the federation queue (the coordination layer wakes the broker).
 *   <li>Local capacity is ready (reservation ratio under the exposure threshold, cores free, BILB
 *       receive allowance left): a pilot shaped like a waiting job goes into the local queue.
 *       When it starts it asks for work and DirectContr picks the job then (late binding).
 *   <li>A job ends: the pilot reports it, the result goes to the home site, which replays it in
 *       the user's parked job and folds it into the ledger.
 *   <li>A site leaves: the coordination layer requeues its claims; its pilots' heartbeats fail
 *       and they kill their runs.
 * </ol>
 *
 * Allowances are in core-seconds (cores times time limit) while jobs are not divisible: a job
 * goes out while the period's send allowance is not used up, and a pilot is submitted while
 * receive allowance is left, so the last one may go past the allowance by less than one job.
 * Without that a job larger than a small allowance would never move.
 *
 * <p>Every decision goes through {@link Decisions}: one log line with its reason.
 */
public final class Broker implements PilotService {
  private static final Logger LOG = LoggerFactory.getLogger(Broker.class);
  /** Time limit assumed for a job that has none, when its core-seconds are counted. */
  static final long NO_LIMIT_SECONDS = 24 * 3600;
  private static final int HISTORY = 10_000;

  private final BrokerSettings settings;
  private final Coordination coordination;
  private final ResourceHandler handler;
  private final Optional<HomeQueue> home;
  private final RunOutputs outputs;

  /** Where this daemon keeps the outputs of foreign runs until their home sites fetch them. */
  public RunOutputs outputs() {
    return outputs;
  }
  private final Decisions decisions;
  private final SecureRandom random = new SecureRandom();

  // home side, touched only by tick()
  private final Map<String, Long> firstSeen = new HashMap<>();
  private final Map<String, JobSpec> published = new HashMap<>();
  private final Set<String> keptLogged = new HashSet<>();
  private final Map<String, Finished> history = new LinkedHashMap<>(16, 0.75f, false) {
    private static final long serialVersionUID = 1L;

    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Finished> eldest) {
      return size() > HISTORY;
    }
  };

  // executor side, touched by tick() and by pilots
  private final Map<String, Pilot> pilots = new ConcurrentHashMap<>();
  private final Object periodLock = new Object();
  private long period = -1;
  private String periodLeader = "";
  private double sent;
  private double taken;
  private long pilotSerial;

  private volatile double participation;
  private volatile QueueObservation last;
  private volatile boolean joined;

  /** A pilot this broker submitted, and the job it runs once it has one. */
  private static final class Pilot {
    final String id;
    final String token;
    final String account;
    final int cores;
    final long walltime;
    final JobRef target;
    final long submitted = System.nanoTime();
    volatile PilotHandle handle;
    volatile Claim claim;
    volatile double startedAt;
    volatile boolean asked;
    volatile boolean finished;

    Pilot(String id, String token, String account, int cores, long walltime, JobRef target) {
      this.id = id;
      this.token = token;
      this.account = account;
      this.cores = cores;
      this.walltime = walltime;
      this.target = target;
    }
  }

  /** How one of this site's jobs ended elsewhere, kept for lookups. */
  public record Finished(String jobId, String executor, double release, double start, double end, int exitCode, String outcome) {}

  public Broker(BrokerSettings settings, Coordination coordination, ResourceHandler handler, Optional<HomeQueue> home, RunOutputs outputs) {
    this.settings = settings;
    this.coordination = coordination;
    this.handler = handler;
    this.home = home;
    this.outputs = outputs;
    this.decisions = new Decisions(settings.site());
    this.participation = settings.participation();
  }

  public BrokerSettings settings() {
    return settings;
  }

  public Decisions decisions() {
    return decisions;
  }

  public Coordination coordination() {
    return coordination;
  }

  /** The last observation of the local batch system (empty before the first tick). */
  public Optional<QueueObservation> lastObservation() {
    return Optional.ofNullable(last);
  }

  public double participation() {
    return participation;
  }

  /** Changes the declared participation level; it is announced with the next status. */
  public void setParticipation(double level) {
    if (!(level >= 0) || Double.isInfinite(level)) {
      throw new IllegalArgumentException("participation level must be finite and >= 0, was " + level);
    }
    decisions.record("participation", "site=" + settings.site(), "operator", "level " + fmt(participation) + " -> " + fmt(level));
    participation = level;
  }

  /** Pilots by state: pending (not asked yet), running (holding a claim), idle. */
  public Map<String, Integer> pilotsByState() {
    Map<String, Integer> out = new LinkedHashMap<>(Map.of("pending", 0, "running", 0));
    for (Pilot p : pilots.values()) {
      out.merge(p.claim != null && !p.finished ? "running" : p.asked ? "done" : "pending", 1, Integer::sum);
    }
    return out;
  }

  /** This site's jobs that ended elsewhere, most recent last (bounded). */
  public synchronized Optional<Finished> finished(String jobId) {
    return Optional.ofNullable(history.get(jobId));
  }

  /**
   * Joins the federation and recovers after a restart: this site's jobs still in the federation
   * are tracked again, and a job parked here but not published (a crash between the two) is
   * released to run at home.
   */
  public synchronized void start() {
    QueueObservation obs = handler.observe();
    last = obs;
    coordination.join(new SiteInfo(settings.site(), settings.endpoint(), obs.totalCores()), status(obs));
    joined = true;
    for (FederatedJob f : coordination.jobs(settings.site())) {
      published.put(f.job().jobId(), f.job());
    }
    if (home.isPresent()) {
      for (HomeJob j : home.get().federable()) {
        if (j.parked() && !published.containsKey(j.id())) {
          home.get().unpark(j.id());
          decisions.record("unpark", job(j.id()), "parked-not-published", "found parked at start but not in the federation; it runs at home");
        }
      }
    }
    LOG.info("site {} joined: {} cores, {} of its jobs in the federation, handler {}", settings.site(), obs.totalCores(),
        published.size(), handler.describe());
  }

  /** One round of events. Failures of the batch system or of ZooKeeper are logged; the next round retries. */
  public synchronized void tick() {
    if (!joined) {
      throw new IllegalStateException("start() the broker before ticking it");
    }
    QueueObservation obs;
    try {
      obs = handler.observe();
    } catch (HandlerException e) {
      LOG.warn("site {}: cannot observe the batch system ({}); retrying next round", settings.site(), e.getMessage());
      return;
    }
    last = obs;
    try {
      Allowances.Allowance allowance = currentAllowance();
      home.ifPresent(h -> homeRound(h, obs, allowance));
      resultsRound();
      pilotsRound();
      executorRound(obs, allowance);
      coordination.updateStatus(status(obs));
    } catch (CoordinationException e) {
      LOG.warn("site {}: coordination failed this round ({}); retrying next round", settings.site(), e.getMessage());
    } catch (HandlerException e) {
      LOG.warn("site {}: the batch system failed this round ({}); retrying next round", settings.site(), e.getMessage());
    }
  }

  // --- event 1: local jobs opt in ------------------------------------------------------------

  private void homeRound(HomeQueue h, QueueObservation obs, Allowances.Allowance allowance) {
    List<HomeJob> jobs = h.federable();
    Map<String, HomeJob> waiting = new HashMap<>();
    jobs.forEach(j -> waiting.put(j.id(), j));
    Map<String, FederatedJob> inFederation = new HashMap<>();
    coordination.jobs(settings.site()).forEach(f -> inFederation.put(f.job().jobId(), f));
    firstSeen.keySet().retainAll(waiting.keySet());
    keptLogged.retainAll(waiting.keySet());

    // published jobs gone from the local queue: cancelled by their user (or replayed already)
    for (String id : new ArrayList<>(published.keySet())) {
      FederatedJob f = inFederation.get(id);
      if (f == null) {
        published.remove(id);
      } else if (!waiting.containsKey(id) && !f.claimed() && coordination.withdraw(id)) {
        published.remove(id);
        decisions.record("withdraw", job(id), "gone-at-home", "the user's job left the local queue before any site claimed it");
      }
    }
    Map<String, Integer> free = new HashMap<>(); // by part of the site (one entry unless it has several batch systems)
    List<JobSpec> batch = new ArrayList<>();
    for (HomeJob j : jobs) {
      FederatedJob f = inFederation.get(j.id());
      if (j.parked()) {
        if (f == null && !published.containsKey(j.id())) {
          // parked here but in the federation no more: its withdrawal's release failed (the batch system was down)
          h.unpark(j.id());
          decisions.record("unpark", job(j.id()), "parked-not-published", "parked here but no longer in the federation; it runs at home");
          continue;
        }
        HomeQueue.Room room = h.room(j.id(), obs);
        int there = free.computeIfAbsent(room.system(), k -> room.freeCores());
        if (f != null && !f.claimed() && !f.finished() && j.cpus() <= there && coordination.withdraw(j.id())) {
          h.unpark(j.id());
          published.remove(j.id());
          free.put(room.system(), there - j.cpus());
          decisions.record("withdraw", job(j.id()), "local-room", j.cpus() + " cores free here before any site claimed it; it runs at home");
        }
        continue;
      }
      if (f != null) {
        continue; // published, parking it failed last round: the next round sees it parked or it ran
      }
      if (!j.ready()) {
        firstSeen.remove(j.id());
        continue; // waits for a dependency, a begin time or a hold, or replays a run: it must not run anywhere (again)
      }
      long seen = firstSeen.computeIfAbsent(j.id(), k -> System.nanoTime());
      HomeQueue.Room room = h.room(j.id(), obs);
      if (System.nanoTime() - seen < settings.publishAfter().toNanos() || j.cpus() <= free.computeIfAbsent(room.system(), k -> room.freeCores())) {
        continue; // local room may still come, or is here: the local scheduler starts it
      }
      double cs = coreSeconds(j.cpus(), j.timeLimitSeconds());
      synchronized (periodLock) {
        if (sent >= allowance.send()) {
          if (keptLogged.add(j.id())) {
            decisions.record("keep", job(j.id()), "send-allowance", String.format(
                "this period's send allowance is used up (%s of %s core-seconds sent)", fmt(sent), fmt(allowance.send())));
          }
          continue;
        }
        sent += cs;
      }
      long limit = j.timeLimitSeconds() > 0 ? j.timeLimitSeconds() : NO_LIMIT_SECONDS;
      try {
        batch.add(new JobSpec(j.id(), settings.site(), j.cpus(), 0, limit, coordination.now(), h.payload(j.id())));
      } catch (IllegalArgumentException | HandlerException e) {
        decisions.record("keep", job(j.id()), "not-publishable", e.getMessage());
        keptLogged.add(j.id());
      }
      if (batch.size() == Coordination.MAX_PUBLISH_BATCH) {
        publish(h, batch, obs);
        batch.clear();
      }
    }
    if (!batch.isEmpty()) {
      publish(h, batch, obs);
    }
  }

  /** Parks, then publishes: a job is never claimable while it can also start here. */
  private void publish(HomeQueue h, List<JobSpec> batch, QueueObservation obs) {
    List<JobSpec> parked = new ArrayList<>();
    for (JobSpec j : batch) {
      try {
        h.park(j.jobId());
        parked.add(j);
      } catch (HandlerException e) {
        decisions.record("keep", job(j.jobId()), "park-failed", e.getMessage());
      }
    }
    if (parked.isEmpty()) {
      return;
    }
    try {
      coordination.publish(parked);
    } catch (CoordinationException e) {
      for (JobSpec j : parked) {
        h.unpark(j.jobId());
        decisions.record("keep", job(j.jobId()), "publish-failed", e.getMessage());
      }
      return;
    }
    for (JobSpec j : parked) {
      published.put(j.jobId(), j);
      decisions.record("publish", job(j.jobId()), "no-local-room", String.format(
          "needs %d cores, %d of %d free, waited %s s", j.cores(), obs.totalCores() - obs.allocatedCores(), obs.totalCores(),
          fmt((System.nanoTime() - firstSeen.getOrDefault(j.jobId(), System.nanoTime())) / 1e9)));
    }
  }

  // --- event 4 at home: results come back ----------------------------------------------------

  private void resultsRound() {
    List<Completed> results = coordination.results();
    if (results.isEmpty()) {
      return;
    }
    List<Completed> done = new ArrayList<>();
    for (Completed c : results) {
      String id = c.job().jobId();
      RunResult r = c.result();
      RemoteRun run;
      try {
        RunOutputs.Captured out = RunOutputs.fetch(r.output());
        run = new RemoteRun(out.stdout(), out.stderr(), clampExit(r.exitCode()), 0);
      } catch (RuntimeException e) {
        run = RemoteRun.exited("", "coalition: the output of the run at " + c.executor() + " could not be fetched: " + e.getMessage() + "\n",
            clampExit(r.exitCode()));
      }
      String outcome;
      try {
        if (home.isEmpty()) {
          throw new HandlerException(HandlerException.Category.REJECTED, "this site has no home queue");
        }
        home.get().replay(id, run);
        outcome = "replayed";
        decisions.record("replay", job(id), "finished-remotely", String.format("ran at %s, exit %d, waited %s s, ran %s s",
            c.executor(), r.exitCode(), fmt(r.start() - c.job().release()), fmt(r.end() - r.start())));
      } catch (HandlerException e) {
        if (e.category() == HandlerException.Category.UNAVAILABLE) {
          LOG.warn("site {}: cannot replay {} now ({}); retrying next round", settings.site(), id, e.getMessage());
          continue;
        }
        outcome = "dropped";
        decisions.record("drop-result", job(id), "home-job-gone", e.getMessage());
      }
      done.add(c);
      history.put(id, new Finished(id, c.executor(), c.job().release(), r.start(), r.end(), r.exitCode(), outcome));
    }
    coordination.acknowledge(done);
    done.forEach(c -> published.remove(c.job().jobId()));
  }

  private static int clampExit(int code) {
    return code >= 0 && code <= 255 ? code : 255;
  }

  // --- events 2 and 3: foreign work and pilots -----------------------------------------------

  private void pilotsRound() {
    List<Pilot> submitted = pilots.values().stream().filter(p -> p.handle != null).toList();
    if (submitted.isEmpty()) {
      return;
    }
    Map<PilotHandle, PilotStatus> states = handler.statuses(submitted.stream().map(p -> p.handle).toList());
    for (Pilot p : submitted) {
      PilotStatus s = states.get(p.handle);
      boolean ended = s == null || switch (s.state()) {
        case COMPLETED, FAILED, CANCELLED, UNKNOWN -> true;
        default -> false;
      };
      if (ended) {
        pilots.remove(p.id);
        if (!p.asked && s != null && s.state() == PilotState.FAILED) {
          decisions.record("pilot-failed", "pilot=" + p.id, "died-before-asking", "the pilot job ended " + s.detail()
              + " without asking for work; check that pilots.command runs on the nodes (its output is in the pilot's working folder)");
        }
        Claim c = p.claim;
        if (c != null && !p.finished) {
          decisions.record("release", job(c.ref()), "pilot-ended", "pilot " + p.id + " ended (" + (s == null ? "unknown" : s.state())
              + ") without reporting; the job goes back to the queue");
          try {
            coordination.release(c);
          } catch (CoordinationException e) {
            LOG.info("claim of {} already gone: {}", c.ref(), e.getMessage());
          }
        }
      } else if (!p.asked && System.nanoTime() - p.submitted > settings.pilotPendingLimit().toNanos()) {
        handler.cancel(p.handle);
        pilots.remove(p.id);
        decisions.record("cancel-pilot", "pilot=" + p.id, "pending-too-long",
            "waited over " + settings.pilotPendingLimit().toSeconds() + " s in the local queue");
      }
    }
  }

  private void executorRound(QueueObservation obs, Allowances.Allowance allowance) {
    double ratio = obs.reservationRatio();
    if (ratio >= settings.exposureThreshold()) {
      return;
    }
    List<Pilot> waiting = pilots.values().stream().filter(p -> !p.asked).toList();
    int free = obs.totalCores() - obs.allocatedCores() - waiting.stream().mapToInt(p -> p.cores).sum();
    Set<JobRef> targeted = new HashSet<>();
    waiting.forEach(p -> targeted.add(p.target));
    double room;
    synchronized (periodLock) {
      room = allowance.receive() - taken - waiting.stream().mapToDouble(p -> coreSeconds(p.cores, p.walltime)).sum();
    }
    List<QueuedJob> candidates = new ArrayList<>();
    Map<String, JobSpec> specs = new HashMap<>();
    for (JobSpec j : coordination.queue()) {
      if (!j.home().equals(settings.site()) && !targeted.contains(j.ref()) && settings.accountFor(j.home()).isPresent()
          && j.cores() <= obs.totalCores()) {
        candidates.add(new QueuedJob(j.ref().toString(), j.home(), j.release(), j.cores()));
        specs.put(j.ref().toString(), j);
      }
    }
    int pending = waiting.size();
    Map<String, Double> priorities = priorities();
    while (!candidates.isEmpty() && pending < settings.maxPendingPilots()) {
      Selection s = DirectContrPolicy.byPriority(policyName(), candidates, site -> priorities.getOrDefault(site, 0.0)).orElseThrow();
      candidates.remove(s.job());
      JobSpec j = specs.get(s.job().id());
      double cs = coreSeconds(j.cores(), j.walltimeSeconds());
      if (j.cores() > free || room <= 0) {
        continue; // jobs are not divisible: the last one may go past the allowance, by less than one job
      }
      String account = settings.accountFor(j.home()).orElseThrow();
      Pilot p = newPilot(account, j);
      try {
        p.handle = handler.submit(new PilotSpec("coalition-pilot-" + p.id, account, j.cores(), j.memoryMb(),
            Math.max(60, j.walltimeSeconds() + 60), settings.pilotPartition(), settings.pilotCommand(),
            Map.of(PilotAgent.ID, p.id, PilotAgent.TOKEN, p.token, PilotAgent.DAEMON, settings.endpoint(),
                PilotAgent.HEARTBEAT, Long.toString(settings.heartbeat().toMillis())), "/tmp", false));
      } catch (HandlerException | IllegalArgumentException e) {
        pilots.remove(p.id);
        decisions.record("no-pilot", job(j.ref()), "submit-failed", e.getMessage());
        break;
      }
      free -= j.cores();
      room -= cs;
      pending++;
      decisions.record("pilot", "pilot=" + p.id + " for=" + j.ref(), "free-capacity", String.format(
          "ratio %.2f < %.2f, %d cores free, %s core-seconds of receive allowance left; %s", ratio, settings.exposureThreshold(),
          free + j.cores(), fmt(room + cs), s.reason()));
    }
  }

  private synchronized Pilot newPilot(String account, JobSpec target) {
    byte[] secret = new byte[24];
    random.nextBytes(secret);
    Pilot p = new Pilot(settings.site() + "-" + (++pilotSerial) + "-" + Long.toHexString(random.nextInt() & 0xffffffL), HexFormat.of().formatHex(secret),
        account, target.cores(), target.walltimeSeconds(), target.ref());
    pilots.put(p.id, p);
    return p;
  }

  // --- the pilot protocol --------------------------------------------------------------------

  @Override
  public Optional<Assignment> work(String pilotId, String token) {
    Pilot p = check(pilotId, token);
    if (p.asked) {
      throw new PilotRefused("pilot " + pilotId + " already asked for work; a pilot runs one job");
    }
    p.asked = true;
    List<QueuedJob> candidates = new ArrayList<>();
    Map<String, JobSpec> specs = new HashMap<>();
    for (JobSpec j : coordination.queue()) {
      if (!j.home().equals(settings.site()) && settings.accountFor(j.home()).map(p.account::equals).orElse(false)
          && j.cores() <= p.cores && j.walltimeSeconds() <= p.walltime) {
        candidates.add(new QueuedJob(j.ref().toString(), j.home(), j.release(), j.cores()));
        specs.put(j.ref().toString(), j);
      }
    }
    Map<String, Double> priorities = priorities();
    while (!candidates.isEmpty()) {
      Selection s = DirectContrPolicy.byPriority(policyName(), candidates, site -> priorities.getOrDefault(site, 0.0)).orElseThrow();
      candidates.remove(s.job());
      JobSpec j = specs.get(s.job().id());
      Optional<Claim> claim = coordination.claim(j.ref());
      if (claim.isEmpty()) {
        continue; // another site was faster, or the home withdrew it
      }
      try {
        coordination.start(claim.get(), coordination.now());
      } catch (CoordinationException e) {
        decisions.record("skip", job(j.ref()), "claim-lost", e.getMessage());
        continue;
      }
      p.startedAt = coordination.now();
      p.claim = claim.get();
      synchronized (periodLock) {
        taken += coreSeconds(j.cores(), j.walltimeSeconds());
      }
      decisions.record("claim", job(j.ref()) + " pilot=" + p.id, "directcontr", s.reason());
      return Optional.of(new Assignment(j.ref().toString(), p.account, j.cores(), j.walltimeSeconds(), j.payload()));
    }
    decisions.record("idle-pilot", "pilot=" + p.id, "no-fitting-job", "no queued job fits " + p.cores + " cores and "
        + p.walltime + " s for account " + p.account);
    return Optional.empty();
  }

  @Override
  public boolean heartbeat(String pilotId, String token) {
    Pilot p = check(pilotId, token);
    Claim c = p.claim;
    if (c == null) {
      throw new PilotRefused("pilot " + pilotId + " has no job to heartbeat for");
    }
    try {
      coordination.heartbeat(c);
      return true;
    } catch (CoordinationException e) {
      if (e.kind() == CoordinationException.Kind.STALE) {
        decisions.record("kill-run", job(c.ref()) + " pilot=" + pilotId, "claim-lost", e.getMessage());
        return false;
      }
      throw e;
    }
  }

  @Override
  public void finish(String pilotId, String token, RunOutcome outcome) {
    Pilot p = check(pilotId, token);
    Claim c = p.claim;
    if (c == null) {
      throw new PilotRefused("pilot " + pilotId + " has no job to finish");
    }
    String ref = outputs.store(c.ref().home() + "-" + c.ref().jobId() + "-" + c.token(), outcome.stdout(), outcome.stderr());
    // start and end on this daemon's federation clock: a pilot's own clock may be off, and it does not know the epoch
    double end = Math.max(p.startedAt, coordination.now());
    coordination.finish(c, new RunResult(p.startedAt, end, outcome.exitCode(), ref));
    p.finished = true;
    decisions.record("finish", job(c.ref()) + " pilot=" + pilotId, "ran-here", String.format("exit %d after %s s",
        outcome.exitCode(), fmt(end - p.startedAt)));
  }

  private Pilot check(String pilotId, String token) {
    Pilot p = pilotId == null ? null : pilots.get(pilotId);
    if (p == null || token == null
        || !MessageDigest.isEqual(p.token.getBytes(StandardCharsets.US_ASCII), token.getBytes(StandardCharsets.US_ASCII))) {
      throw new PilotRefused("unknown pilot or wrong token");
    }
    return p;
  }

  // --- helpers -------------------------------------------------------------------------------

  /** The allowance of the current BILB period; the counts of what was sent and taken restart with each period. */
  private Allowances.Allowance currentAllowance() {
    Allowances a = coordination.allowances();
    synchronized (periodLock) {
      if (a.period() != period || !a.leader().equals(periodLeader)) {
        period = a.period();
        periodLeader = a.leader();
        sent = 0;
        taken = 0;
      }
    }
    return a.of(settings.site());
  }

  private Map<String, Double> priorities() {
    double now = coordination.now();
    Map<String, Double> out = new HashMap<>();
    for (Map.Entry<String, SiteLedger> e : coordination.ledgers().entrySet()) {
      out.put(e.getKey(), e.getValue().priority(settings.utility(), now));
    }
    return out;
  }

  private String policyName() {
    return settings.utility() + "_DIRECT";
  }

  private SiteStatus status(QueueObservation obs) {
    // pending pilots wait in the local queue too; they are not this site's load
    double pilotsWaiting = pilots.values().stream().filter(p -> !p.asked).mapToDouble(p -> coreSeconds(p.cores, p.walltime)).sum();
    double queue = Math.max(0, obs.pendingCoreSeconds() - pilotsWaiting);
    int queued = (int) Math.max(0, obs.pendingJobs() - pilots.values().stream().filter(p -> !p.asked).count());
    return new SiteStatus(settings.site(), obs.totalCores(), queue, queued, obs.reservationRatio(), participation);
  }

  private static double coreSeconds(int cores, long seconds) {
    return (double) cores * (seconds > 0 ? seconds : NO_LIMIT_SECONDS);
  }

  private String job(String localId) {
    return "job=" + settings.site() + "/" + localId;
  }

  private static String job(JobRef ref) {
    return "job=" + ref;
  }

  static String fmt(double v) {
    return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : String.format(java.util.Locale.ROOT, "%.1f", v);
  }

  /** Cancels this broker's pilots that have not asked for work yet (a clean stop). */
  public void cancelPendingPilots() {
    for (Pilot p : pilots.values()) {
      if (!p.asked && p.handle != null) {
        try {
          handler.cancel(p.handle);
        } catch (HandlerException e) {
          LOG.info("cannot cancel pilot {}: {}", p.id, e.getMessage());
        }
      }
    }
  }

}
