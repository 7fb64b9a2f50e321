package org.coalition.local;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.DoubleSupplier;
import org.coalition.handler.HandlerException;
import org.coalition.handler.HandlerException.Category;
import org.coalition.handler.HomeJob;
import org.coalition.handler.HomeQueue;
import org.coalition.handler.InProcessPilots;
import org.coalition.handler.PilotHandle;
import org.coalition.handler.PilotSpec;
import org.coalition.handler.PilotState;
import org.coalition.handler.PilotStatus;
import org.coalition.handler.QueueObservation;
import org.coalition.handler.RemoteRun;
import org.coalition.handler.RequestCost;
import org.coalition.handler.ResourceHandler;
import org.coalition.handler.ScriptRunner;

/**
 * The demo's batch system: a site of {@code cores} cores on this machine that runs its users'
 * jobs and pilots as local processes, first come first served with first-fit backfill (a waiting
 * job that fits the free cores starts, even past a larger one). Every user job is opted in to the
 * federation. It is a real scheduler of real processes, small enough to read in one sitting, not
 * a stand-in for a batch system in tests of a handler.
 */
public final class LocalSite implements ResourceHandler, HomeQueue, InProcessPilots {
  /** A job as the demo reports it. {@code ranAt} is this site's name, another site's, or empty while waiting. */
  public record Job(String id, String user, int cores, double submitted, double start, double end, int exitCode, String ranAt, String stdout) {
    public boolean done() {
      return end >= 0;
    }
  }

  private enum Kind { USER, PILOT }

  private enum State { PENDING, RUNNING, DONE }

  private static final class Entry {
    final String id;
    final Kind kind;
    final String user;
    final int cores;
    final long walltime;
    final String script;
    final PilotSpec pilot;
    final double submitted;
    State state = State.PENDING;
    boolean parked;
    /** Set when the entry is cancelled while it runs: it then ends CANCELLED, whatever its exit. */
    boolean cancelled;
    /** Its run, once scheduled; {@code started} once a thread has taken it up. */
    Future<?> running;
    boolean started;
    double start = -1;
    double end = -1;
    int exit;
    String ranAt = "";
    String stdout = "";

    Entry(String id, Kind kind, String user, int cores, long walltime, String script, PilotSpec pilot, double submitted) {
      this.id = id;
      this.kind = kind;
      this.user = user;
      this.cores = cores;
      this.walltime = walltime;
      this.script = script;
      this.pilot = pilot;
      this.submitted = submitted;
    }
  }

  private final String name;
  private final int cores;
  private final ScriptRunner runner;
  private final DoubleSupplier clock;
  private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "local-site");
    t.setDaemon(true);
    return t;
  });
  private final LinkedHashMap<String, Entry> entries = new LinkedHashMap<>();
  /** What the local site's pilots run: nothing on disk; {@link #pilots} runs the agent in process. */
  public static final List<String> PILOT_COMMAND = List.of("coalition", "pilot");

  private volatile PilotLauncher launcher = spec -> 0;
  private int used;
  private long serial;
  private boolean closed;

  public LocalSite(String name, int cores, ScriptRunner runner, DoubleSupplier clock) {
    if (cores < 1) {
      throw new IllegalArgumentException("site " + name + ": cores must be >= 1, was " + cores);
    }
    this.name = name;
    this.cores = cores;
    this.runner = runner;
    this.clock = clock;
  }

  @Override
  public List<String> pilotCommand() {
    return PILOT_COMMAND;
  }

  @Override
  public void pilots(PilotLauncher launcher) {
    this.launcher = launcher;
  }

  /** A user submits a job (opted in to the federation); returns its id. */
  public synchronized String submit(String user, int jobCores, long walltimeSeconds, String script) {
    if (jobCores < 1 || jobCores > cores) {
      throw new IllegalArgumentException("site " + name + ": a job needs 1-" + cores + " cores, asked " + jobCores);
    }
    String id = Long.toString(++serial);
    entries.put(id, new Entry(id, Kind.USER, user, jobCores, walltimeSeconds, script, null, clock.getAsDouble()));
    schedule();
    return id;
  }

  /** Users' jobs, in submission order. */
  public synchronized List<Job> jobs() {
    List<Job> out = new ArrayList<>();
    for (Entry e : entries.values()) {
      if (e.kind == Kind.USER) {
        out.add(new Job(e.id, e.user, e.cores, e.submitted, e.start, e.end, e.exit, e.ranAt, e.stdout));
      }
    }
    return out;
  }

  // --- ResourceHandler ------------------------------------------------------------------------

  @Override
  public String describe() {
    return "local processes (" + cores + " cores, demo site " + name + ")";
  }

  @Override
  public synchronized QueueObservation observe() {
    int pending = 0;
    double pendingCs = 0;
    for (Entry e : entries.values()) {
      if (e.state == State.PENDING) {
        pending++;
        pendingCs += (double) e.cores * e.walltime;
      }
    }
    return new QueueObservation(clock.getAsDouble(), pending, pendingCs, List.of(), used, cores, RequestCost.NONE);
  }

  @Override
  public synchronized PilotHandle submit(PilotSpec spec) {
    if (spec.cores() > cores) {
      throw new HandlerException(Category.REJECTED, "site " + name + " has " + cores + " cores; pilot asks " + spec.cores());
    }
    String id = Long.toString(++serial);
    Entry entry = new Entry(id, Kind.PILOT, spec.account(), spec.cores(), spec.walltimeSeconds(), "", spec, clock.getAsDouble());
    entry.parked = spec.held();
    entries.put(id, entry);
    schedule();
    return new PilotHandle("local", id);
  }

  @Override
  public synchronized void hold(PilotHandle pilot) {
    entry(pilot.nativeId()).parked = true;
  }

  @Override
  public synchronized void release(PilotHandle pilot) {
    entry(pilot.nativeId()).parked = false;
    schedule();
  }

  @Override
  public synchronized void cancel(PilotHandle pilot) {
    Entry e = entries.get(pilot.nativeId());
    if (e != null && e.state == State.PENDING) {
      e.state = State.DONE;
      e.end = clock.getAsDouble();
      e.exit = -1;
    } else if (e != null && e.state == State.RUNNING && !e.cancelled) {
      e.cancelled = true;
      e.running.cancel(true); // interrupts the run; it ends CANCELLED
      if (!e.started) { // no thread took it up yet, and none will: it ends here
        finish(e, -1, "");
      }
    }
  }

  @Override
  public synchronized PilotStatus status(PilotHandle pilot) {
    Entry e = entries.get(pilot.nativeId());
    if (e == null) {
      return PilotStatus.unknown(pilot, "no such job");
    }
    PilotState s = switch (e.state) {
      case PENDING -> e.parked ? PilotState.HELD : PilotState.PENDING;
      case RUNNING -> PilotState.RUNNING;
      case DONE -> e.exit < 0 ? PilotState.CANCELLED : e.exit == 0 ? PilotState.COMPLETED : PilotState.FAILED;
    };
    return new PilotStatus(pilot, s, e.state == State.DONE && e.exit >= 0 ? OptionalInt.of(e.exit) : OptionalInt.empty(), e.state.name());
  }

  @Override
  public synchronized Map<PilotHandle, PilotStatus> statuses(Collection<PilotHandle> pilots) {
    Map<PilotHandle, PilotStatus> out = new HashMap<>();
    pilots.forEach(p -> out.put(p, status(p)));
    return out;
  }

  // --- HomeQueue ------------------------------------------------------------------------------

  @Override
  public synchronized List<HomeJob> federable() {
    List<HomeJob> out = new ArrayList<>();
    for (Entry e : entries.values()) {
      if (e.kind == Kind.USER && e.state == State.PENDING) {
        out.add(HomeJob.builder(e.id, e.user).cpus(e.cores).timeLimitSeconds(e.walltime).held(e.parked).build());
      }
    }
    return out;
  }

  @Override
  public synchronized Optional<String> owner(String jobId) {
    Entry e = entries.get(jobId);
    return e == null || e.kind != Kind.USER ? Optional.empty() : Optional.of(e.user);
  }

  @Override
  public synchronized String payload(String jobId) {
    return pendingUserJob(jobId, "read").script;
  }

  @Override
  public synchronized void park(String jobId) {
    pendingUserJob(jobId, "park").parked = true;
  }

  @Override
  public synchronized void unpark(String jobId) {
    pendingUserJob(jobId, "unpark").parked = false;
    schedule();
  }

  @Override
  public synchronized void replay(String jobId, RemoteRun run) {
    Entry e = pendingUserJob(jobId, "replay a run of");
    if (!e.parked) {
      throw new HandlerException(Category.REJECTED, "job " + jobId + " at " + name + " is not parked; it may start here");
    }
    e.state = State.DONE;
    e.exit = run.signal() == 0 ? run.exitCode() : 128 + run.signal();
    e.stdout = new String(run.stdout(), StandardCharsets.UTF_8);
    e.end = clock.getAsDouble();
  }

  @Override
  public void close() {
    synchronized (this) {
      closed = true;
    }
    threads.shutdownNow();
    try {
      threads.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  // --- scheduling -----------------------------------------------------------------------------

  private Entry pendingUserJob(String id, String what) {
    Entry e = entries.get(id);
    if (e == null || e.kind != Kind.USER) {
      throw new HandlerException(Category.NOT_FOUND, "cannot " + what + " job " + id + ": site " + name + " has no such job");
    }
    if (e.state != State.PENDING) {
      throw new HandlerException(Category.REJECTED, "cannot " + what + " job " + id + ": it is " + e.state + ", not pending");
    }
    return e;
  }

  private Entry entry(String id) {
    Entry e = entries.get(id);
    if (e == null) {
      throw new HandlerException(Category.NOT_FOUND, "site " + name + " has no job " + id);
    }
    return e;
  }

  /** First fit over the queue in submission order. */
  private void schedule() {
    if (closed) {
      return;
    }
    for (Entry e : entries.values()) {
      if (e.state == State.PENDING && !e.parked && e.cores <= cores - used) {
        e.state = State.RUNNING;
        e.start = clock.getAsDouble();
        used += e.cores;
        e.running = threads.submit(() -> runEntry(e));
      }
    }
  }

  private void runEntry(Entry e) {
    synchronized (this) {
      if (e.cancelled) {
        return; // cancelled before it started: cancel() ended it
      }
      e.started = true;
    }
    int exit;
    String out = "";
    try {
      if (e.kind == Kind.PILOT) {
        exit = launcher.run(e.pilot);
      } else {
        ScriptRunner.Run run = runner.start(name + "-" + e.id, e.user, e.script);
        try {
          if (!run.process().waitFor(e.walltime, TimeUnit.SECONDS)) {
            run.kill(); // the job and what it started (the launcher puts it in a process group of its own)
            run.process().waitFor();
          }
        } catch (InterruptedException cancelled) {
          run.kill();
          run.clean();
          throw cancelled;
        }
        try {
          exit = run.process().exitValue();
          out = new String(run.stdout(), StandardCharsets.UTF_8);
        } finally {
          run.clean();
        }
      }
    } catch (InterruptedException ex) {
      Thread.currentThread().interrupt();
      exit = 143;
    } catch (RuntimeException ex) {
      exit = 127;
      out = ex.getMessage();
    }
    synchronized (this) {
      finish(e, exit, out);
    }
  }

  /** Ends a running entry: CANCELLED (exit -1) when it was cancelled, else with {@code exit}; its cores go back. */
  private void finish(Entry e, int exit, String out) {
    e.state = State.DONE;
    e.end = clock.getAsDouble();
    e.exit = e.cancelled ? -1 : exit;
    e.stdout = out;
    if (e.kind == Kind.USER) {
      e.ranAt = name;
    }
    used -= e.cores;
    schedule();
  }
}
