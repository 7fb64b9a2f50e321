package org.coalition.slurm;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import org.coalition.handler.Escrow;
import org.coalition.handler.HandlerException;
import org.coalition.handler.HandlerException.Category;
import org.coalition.handler.HomeJob;
import org.coalition.handler.HomeQueue;
import org.coalition.handler.PartitionLoad;
import org.coalition.handler.PilotHandle;
import org.coalition.handler.PilotSpec;
import org.coalition.handler.PilotStatus;
import org.coalition.handler.QueueObservation;
import org.coalition.handler.RemoteRun;
import org.coalition.handler.RequestCost;
import org.coalition.handler.ResourceHandler;
import org.coalition.handler.files.Results;
import org.coalition.job.JobLayout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Slurm through slurmrestd. {@link #connect} finds the newest REST version both sides speak (or
 * the one a site pins); observation keeps a cache of jobs and nodes and asks only for what
 * changed where the version allows it (see the module's README for what each version costs);
 * pilots are ordinary batch jobs submitted as the mapped local user, never requeued by Slurm.
 */
public final class SlurmHandler implements ResourceHandler, HomeQueue {
  private static final Logger LOG = LoggerFactory.getLogger(SlurmHandler.class);
  /** REST versions this handler speaks, newest first. */
  public static final List<String> VERSIONS = List.of("v0.0.42", "v0.0.40", "v0.0.38");
  /** A poll that finds more new pending jobs than this fetches the whole list once rather than each job. */
  static final int BULK = 20;

  private final SlurmRest rest;
  private final SlurmConfig config;
  private final Map<String, SlurmJob> jobs = new HashMap<>();
  private List<SlurmNode> nodes = List.of();
  private long jobsSince;
  private long nodesSince;
  private double lastFullList = Double.NEGATIVE_INFINITY;
  private final Optional<Results> results;
  private final FederableJobs federableJobs;

  SlurmHandler(SlurmRest rest, SlurmConfig config) {
    this.rest = rest;
    this.config = config;
    this.results = config.results().map(Results::new);
    this.federableJobs = new FederableJobs(rest, config, results);
  }

  /**
   * Connects to slurmrestd: pings each version this handler speaks, newest first (or only the
   * pinned one), and keeps the first the server answers.
   *
   * @throws HandlerException UNAVAILABLE when slurmrestd cannot be reached, AUTHENTICATION when the
   *     token is refused, PROTOCOL when the server speaks none of {@link #VERSIONS}
   */
  public static SlurmHandler connect(SlurmConfig config) {
    RestEndpoint endpoint = new RestEndpoint(config.url(), config.credentials(), config.timeout());
    Map<String, Function<RestEndpoint, SlurmRest>> adapters = new LinkedHashMap<>();
    adapters.put("v0.0.42", e -> new V0042Rest(e, config.observer()));
    adapters.put("v0.0.40", e -> new V0040Rest(e, config.observer(), config.clock()));
    adapters.put("v0.0.38", e -> new V0038Rest(e, config.observer(), config.clock()));
    List<String> tried = new ArrayList<>();
    for (var adapter : adapters.entrySet()) {
      if (config.version().isPresent() && !config.version().get().equals(adapter.getKey())) {
        continue;
      }
      try {
        return new SlurmHandler(adapter.getValue().apply(endpoint), config);
      } catch (HandlerException e) {
        if (e.category() != Category.NOT_FOUND) {
          throw e;
        }
        tried.add(adapter.getKey());
      }
    }
    throw new HandlerException(Category.PROTOCOL, "slurmrestd at " + config.url() + " serves none of " + tried
        + (config.version().isPresent() ? " (pinned in the site's configuration; remove the pin or pick a version it serves)"
            : "; start it with one of these plugins, e.g. `slurmrestd -s openapi/slurmctld` (23.11 and later) or `-s openapi/v0.0.38` (22.05)"));
  }

  /** The REST version in use. */
  public String version() {
    return rest.version();
  }

  @Override
  public String describe() {
    return "slurm " + rest.release() + " (slurmrestd " + rest.version() + " at " + config.url() + ")";
  }

  @Override
  public synchronized QueueObservation observe() {
    RequestCost before = cost();
    double now = config.clock().millis() / 1000.0;
    Map<String, String> states = rest.jobStates(null);
    if (states == null) {
      SlurmRest.Snapshot<SlurmJob> changed = rest.jobs(jobsSince);
      if (changed != null) {
        jobs.clear();
        changed.items().forEach(j -> jobs.put(j.id(), j));
        jobsSince = changed.lastUpdate();
      }
    } else {
      refresh(states, now);
    }
    SlurmRest.Snapshot<SlurmNode> changedNodes = rest.nodes(nodesSince);
    if (changedNodes != null) {
      nodes = changedNodes.items();
      nodesSince = changedNodes.lastUpdate();
    }
    int pending = 0;
    double coreSeconds = 0;
    Map<String, double[]> partitions = new TreeMap<>();
    for (SlurmJob j : jobs.values()) {
      if (j.pending()) {
        int tasks = j.array().taskId() < 0 && j.array().any() ? Math.max(1, j.array().tasks().size()) : 1; // an array's pending tasks
        double work = (double) tasks * j.cpus() * (j.timeLimitSeconds() > 0 ? j.timeLimitSeconds() : config.unlimitedSeconds());
        pending += tasks;
        coreSeconds += work;
        double[] p = partitions.computeIfAbsent(j.partition(), k -> new double[2]);
        p[0] += tasks;
        p[1] += work;
      }
    }
    List<PartitionLoad> loads = new ArrayList<>();
    partitions.forEach((name, p) -> loads.add(new PartitionLoad(name, (int) p[0], p[1])));
    int allocated = 0;
    int total = 0;
    for (SlurmNode n : nodes) {
      if (n.usable()) {
        total += n.cpus();
        allocated += Math.min(n.cpus(), n.allocatedCpus());
      }
    }
    results.ifPresent(r -> r.sweep(this::ended));
    RequestCost after = cost();
    return new QueueObservation(now, pending, coreSeconds, loads, allocated, total,
        new RequestCost(after.requests() - before.requests(), after.bytes() - before.bytes()));
  }

  /** Where the version lists states alone: details only for jobs not seen before, or the whole list when many are new. */
  private void refresh(Map<String, String> allStates, double now) {
    // an array's tasks are listed by name (276_5), not by their records' ids: an array with a task pending is read whole below
    Map<String, String> states = new HashMap<>();
    Set<String> arrays = new HashSet<>();
    allStates.forEach((id, state) -> {
      int task = id.indexOf('_');
      if (task < 0) {
        states.put(id, state);
      } else if (state.equals("PENDING")) {
        arrays.add(id.substring(0, task));
      }
    });
    jobs.keySet().retainAll(states.keySet());
    List<String> unseen = new ArrayList<>();
    states.forEach((id, state) -> {
      SlurmJob known = jobs.get(id);
      if (known == null) {
        if (state.equals("PENDING")) {
          unseen.add(id);
        }
      } else if (!known.state().equals(state)) {
        jobs.put(id, known.withState(state));
      }
    });
    if (unseen.size() > BULK || now - lastFullList >= config.fullListEvery().toMillis() / 1000.0) {
      jobs.clear();
      rest.jobs(0).items().forEach(j -> jobs.put(j.id(), j));
      lastFullList = now;
      return;
    }
    for (String id : unseen) {
      rest.job(id).ifPresent(j -> jobs.put(id, j));
    }
    // and the record of an array's tasks not split off loses a task to each split without changing state: it is read again
    jobs.values().stream().filter(j -> j.pending() && j.array().any() && j.array().taskId() < 0)
        .forEach(j -> arrays.add(Long.toString(j.array().jobId())));
    for (String array : arrays) {
      rest.records(array).forEach(j -> jobs.put(j.id(), j));
    }
  }

  /** Whether job {@code id} is over (or unknown to Slurm), so a result left for it can go. */
  private boolean ended(String id) {
    SlurmJob known = jobs.get(id);
    if (known == null || !known.state().equals("PENDING")) {
      known = rest.job(id).orElse(null);  // only for the few replayed jobs not seen pending
    }
    return known == null || switch (SlurmPilots.status(new PilotHandle("slurm", id), known).state()) {
      case COMPLETED, FAILED, CANCELLED -> true;
      default -> false;
    };
  }

  /** Opted-in jobs of this site's users waiting in the queue (held ones included; each task of an array), as of the last {@link #observe()}. */
  @Override
  public synchronized List<HomeJob> federable() {
    // a released job whose result waits in the results folder is replaying, not waiting: it is not ready to go out again
    return HomeJobs.of(jobs.values(), id -> results.isPresent() && Files.exists(results.get().root().resolve(id)));
  }

  /**
   * Keeps an opted-in job from starting here while it runs at another site.
   *
   * @see FederableJobs#park
   */
  @Override
  public void park(String jobId) {
    federableJobs.park(jobId);
    reread(jobId);
  }

  /** Lets a parked job run here after all: its run elsewhere was withdrawn before it started. */
  @Override
  public void unpark(String jobId) {
    federableJobs.unpark(jobId);
    reread(jobId);
  }

  /**
   * Reads job {@code jobId}'s record again after this handler changed it, so that the next
   * {@link #federable} shows the change: a state-only poll (REST v0.0.42) does not see a hold,
   * which leaves a job pending, until its next whole list (found by the home contract on 24.11:
   * a job just parked was listed as not held). A task of an array is left to the next poll. Never
   * throws: the change is made, and a caller told otherwise would take a park that holds for one
   * that failed (and forget the record that tells its hold from an administrator's); a record that
   * cannot be read now is left to the next poll.
   */
  private synchronized void reread(String jobId) {
    if (jobId.indexOf('_') < 0 && jobs.containsKey(jobId)) {
      try {
        rest.job(jobId).ifPresent(j -> jobs.put(jobId, j));
      } catch (HandlerException e) {
        LOG.info("job {} changed, but its record cannot be read again now ({}); the next observation reads it", jobId, e.getMessage());
      }
    }
  }

  /**
   * Hands a parked job its run at another site and releases it, to end here as that run ended.
   *
   * @see FederableJobs#replay
   */
  @Override
  public void replay(String jobId, RemoteRun run) {
    federableJobs.replay(jobId, run);
  }

  /**
   * Four: each payload, note and replay is a few requests about one job (read it, update it, read
   * its script with scontrol, write its result file), with no state of the handler's own between
   * them, and slurmrestd serves requests on its own threads (20 by default); four at a time keep a
   * burst moving without crowding the controller.
   */
  @Override
  public int concurrentCalls() {
    return 4;
  }

  /**
   * Tells the job's user where it is, in its comment.
   *
   * @see FederableJobs#note
   */
  @Override
  public void note(String jobId, String text) {
    federableJobs.note(jobId, text);
  }

  @Override
  public Optional<String> owner(String jobId) {
    return federableJobs.owner(jobId);
  }

  /**
   * The script of an opted-in job as its user wrote it.
   *
   * @see FederableJobs#payload
   */
  @Override
  public String payload(String jobId) {
    return federableJobs.payload(jobId);
  }

  /**
   * Its free cores in {@code obs}, and whether enough nodes have the job's cores, memory and GRES
   * free now ({@link SlurmLayout#hasRoom}): a job of a GPU waits for a GPU, and a job that waits for
   * memory where cores are free cannot run soon either (it goes out after {@code publish-after}).
   */
  @Override
  public synchronized Room room(HomeJob job, QueueObservation obs) {
    Room cores = HomeQueue.super.room(job, obs);
    boolean free = nodes.isEmpty() || SlurmLayout.hasRoom(nodes, job.cpus(), job.memoryMb(), job.layout());
    return new Room(cores.system(), cores.freeCores(), free);
  }

  /** Whether its nodes, as of the last observation, could hold such a pilot at all ({@link SlurmLayout#canHold}); before any, yes. */
  @Override
  public synchronized boolean canHold(int cores, long memoryMb, JobLayout layout) {
    return nodes.isEmpty() || SlurmLayout.canHold(nodes, cores, memoryMb, layout);
  }

  /** Requests made and bytes received since the handler connected. */
  public RequestCost cost() {
    return rest.cost();
  }

  /** Advance reservations through the site's {@code scontrol}, held for the observer user ({@link SlurmEscrow}). */
  @Override
  public Optional<Escrow> escrow() {
    return Optional.of(new SlurmEscrow(new SlurmReservations(config.scontrol(), config.timeout()), config.observer()));
  }

  @Override
  public PilotHandle submit(PilotSpec spec) {
    return new PilotHandle("slurm", rest.submit(spec, SlurmPilots.script(spec)));
  }

  @Override
  public void hold(PilotHandle pilot) {
    rest.hold(id(pilot), true, config.observer());
  }

  @Override
  public void release(PilotHandle pilot) {
    rest.hold(id(pilot), false, config.observer());
  }

  @Override
  public void cancel(PilotHandle pilot) {
    rest.cancel(id(pilot), config.observer());
  }

  @Override
  public PilotStatus status(PilotHandle pilot) {
    return rest.job(id(pilot)).map(j -> SlurmPilots.status(pilot, j))
        .orElseGet(() -> PilotStatus.unknown(pilot, "Slurm does not know job " + pilot.nativeId() + " (ended longer ago than MinJobAge?)"));
  }

  @Override
  public Map<PilotHandle, PilotStatus> statuses(Collection<PilotHandle> pilots) {
    Map<PilotHandle, PilotStatus> result = new LinkedHashMap<>();
    if (pilots.isEmpty()) {
      return result;
    }
    Map<String, SlurmJob> byId = new HashMap<>();
    SlurmRest.Snapshot<SlurmJob> all = rest.jobs(0);
    all.items().forEach(j -> byId.put(j.id(), j));
    for (PilotHandle p : pilots) {
      SlurmJob j = byId.get(id(p));
      result.put(p, j == null ? PilotStatus.unknown(p, "Slurm does not know job " + p.nativeId()) : SlurmPilots.status(p, j));
    }
    return result;
  }

  @Override
  public void close() {
    // HTTP clients hold no resources that outlive their requests.
  }

  private static String id(PilotHandle pilot) {
    if (!pilot.system().equals("slurm") || !pilot.nativeId().matches("[0-9]+")) {
      throw new HandlerException(Category.REJECTED, "not a Slurm job: " + pilot);
    }
    return pilot.nativeId();
  }
}
