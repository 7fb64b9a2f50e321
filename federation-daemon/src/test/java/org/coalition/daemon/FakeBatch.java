package org.coalition.daemon;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.function.Consumer;
import org.coalition.handler.HomeJob;
import org.coalition.handler.HomeQueue;
import org.coalition.handler.PilotHandle;
import org.coalition.handler.PilotSpec;
import org.coalition.handler.PilotState;
import org.coalition.handler.PilotStatus;
import org.coalition.handler.QueueObservation;
import org.coalition.handler.RemoteRun;
import org.coalition.handler.RequestCost;
import org.coalition.handler.ResourceHandler;
import org.coalition.job.JobLayout;

/**
 * A hand-written batch system for the broker's unit tests: no processes, nothing runs. The test
 * sets its cores, its users' jobs and its pilots' states, and reads what the broker did to it.
 */
public final class FakeBatch implements ResourceHandler, HomeQueue {
  public int totalCores;
  /** Its biggest node's memory (0: any pilot fits). */
  long nodeMemoryMb;
  /** Its nodes, each with {@link #nodeGres}. */
  int nodes = 1;
  /** The GRES on each node, counted by name. */
  Map<String, Integer> nodeGres = Map.of();
  public int allocatedCores;
  final Map<String, HomeJob> jobs = new LinkedHashMap<>();
  final Map<String, String> scripts = new HashMap<>();
  final Map<String, RemoteRun> replayed = new LinkedHashMap<>();
  final List<PilotSpec> submitted = new ArrayList<>();
  final Map<PilotHandle, PilotState> pilots = new LinkedHashMap<>();
  final List<PilotHandle> cancelled = new ArrayList<>();
  /** What the batch system says of a pilot beside its state ({@link #preempt}). */
  final Map<PilotHandle, String> details = new HashMap<>();
  /** The jobs the broker released ({@link #unpark}), in order. */
  final List<String> unparked = new ArrayList<>();
  /** Each job's notes to its user, oldest first. */
  public final Map<String, List<String>> notes = new LinkedHashMap<>();
  /** Runs inside {@link #submit}, as a batch system that starts the pilot at once would. */
  Consumer<PilotSpec> onSubmit = spec -> {};
  /** When set, listing the users' jobs throws it (a home queue with a bug). */
  RuntimeException broken;
  /** When set, observing the queue throws it (slurmrestd down, say). */
  public RuntimeException observeFails;
  /** When set, replaying a run throws it (the results folder's disk full, say). */
  RuntimeException replayFails;
  /** How many calls the daemon may make at once ({@link HomeQueue#concurrentCalls}); read when a broker is made. */
  int concurrentCalls = 1;
  /** Runs as each replay begins, on the replaying thread, before the replay is recorded. */
  Consumer<String> onReplay = id -> {};

  public FakeBatch(int totalCores) {
    this.totalCores = totalCores;
  }

  /** A user's opted-in job, ready to run, of {@code cpus} cores and a one-hour limit. */
  public void userJob(String id, int cpus) {
    userJob(id, cpus, 0);
  }

  /** A user's opted-in job, ready to run, of {@code cpus} cores, {@code memoryMb} (0: none named) and a one-hour limit. */
  public void userJob(String id, int cpus, long memoryMb) {
    userJob(id, cpus, memoryMb, "");
  }

  /** As above; {@code staysHome}: why it cannot run elsewhere as it asks (several nodes, GPUs), or empty. */
  public void userJob(String id, int cpus, long memoryMb, String staysHome) {
    jobs.put(id, HomeJob.builder(id, "alice").cpus(cpus).memoryMb(memoryMb).timeLimitSeconds(3600).staysHome(staysHome).build());
    scripts.put(id, "#!/bin/sh\necho " + id + "\n");
  }

  /** A user's opted-in job of {@code cpus} cores laid out as {@code layout}. */
  void userJob(String id, int cpus, JobLayout layout) {
    jobs.put(id, HomeJob.builder(id, "alice").cpus(cpus).timeLimitSeconds(3600).layout(layout).build());
    scripts.put(id, "#!/bin/sh\necho " + id + "\n");
  }

  /** Job {@code id} held or not, ready or not, as it was otherwise. */
  private void set(String id, boolean held, boolean ready) {
    HomeJob j = jobs.get(id);
    jobs.put(id, HomeJob.builder(j.id(), j.user()).partition(j.partition()).cpus(j.cpus()).memoryMb(j.memoryMb())
        .timeLimitSeconds(j.timeLimitSeconds()).held(held).ready(ready).workDir(j.workDir()).staysHome(j.staysHome()).environment(j.environment())
        .layout(j.layout()).build());
  }

  /** An administrator's hold on job {@code id} (Slurm's {@code scontrol hold}): held, and not ready. */
  void adminHold(String id) {
    set(id, true, false);
  }

  PilotHandle lastPilot() {
    return new ArrayList<>(pilots.keySet()).get(pilots.size() - 1);
  }

  @Override
  public String describe() {
    return "fake batch system";
  }

  /** The users' jobs not parked are its queue. */
  @Override
  public boolean canHold(int cores, long memoryMb, JobLayout layout) {
    return (nodeMemoryMb == 0 || memoryMb <= nodeMemoryMb) && layout.nodes() <= nodes
        && layout.gres().entrySet().stream().allMatch(g -> nodeGres.getOrDefault(g.getKey(), 0) >= g.getValue());
  }

  @Override
  public QueueObservation observe() {
    if (observeFails != null) {
      throw observeFails;
    }
    List<HomeJob> queued = jobs.values().stream().filter(j -> !j.held()).toList();
    return new QueueObservation(0, queued.size(), queued.stream().mapToDouble(j -> (double) j.cpus() * j.timeLimitSeconds()).sum(), List.of(),
        allocatedCores, totalCores, RequestCost.NONE);
  }

  @Override
  public PilotHandle submit(PilotSpec spec) {
    submitted.add(spec);
    PilotHandle h = new PilotHandle("fake", Integer.toString(submitted.size()));
    pilots.put(h, PilotState.PENDING);
    onSubmit.accept(spec);
    return h;
  }

  @Override
  public void hold(PilotHandle pilot) {
    pilots.put(pilot, PilotState.HELD);
  }

  @Override
  public void release(PilotHandle pilot) {
    pilots.put(pilot, PilotState.PENDING);
  }

  @Override
  public void cancel(PilotHandle pilot) {
    cancelled.add(pilot);
    pilots.put(pilot, PilotState.CANCELLED);
  }

  /** The batch system's own preemption ends {@code pilot}, as Slurm's reports it (PREEMPTED). */
  void preempt(PilotHandle pilot) {
    pilots.put(pilot, PilotState.CANCELLED);
    details.put(pilot, "PREEMPTED");
  }

  @Override
  public PilotStatus status(PilotHandle pilot) {
    return new PilotStatus(pilot, pilots.getOrDefault(pilot, PilotState.UNKNOWN), OptionalInt.empty(), details.getOrDefault(pilot, ""));
  }

  @Override
  public Map<PilotHandle, PilotStatus> statuses(Collection<PilotHandle> handles) {
    Map<PilotHandle, PilotStatus> out = new HashMap<>();
    handles.forEach(h -> out.put(h, status(h)));
    return out;
  }

  @Override
  public List<HomeJob> federable() {
    if (broken != null) {
      throw broken;
    }
    return List.copyOf(jobs.values());
  }

  @Override
  public String payload(String jobId) {
    return scripts.get(jobId);
  }

  @Override
  public void park(String jobId) {
    set(jobId, true, false);
  }

  /** What {@link #note} throws; null: notes go in. */
  public RuntimeException noteFails;

  @Override
  public synchronized void note(String jobId, String text) {
    if (noteFails != null) {
      throw noteFails;
    }
    notes.computeIfAbsent(jobId, k -> new ArrayList<>()).add(text);
  }

  @Override
  public void unpark(String jobId) {
    unparked.add(jobId);
    set(jobId, false, true);
  }

  @Override
  public void replay(String jobId, RemoteRun run) {
    onReplay.accept(jobId);
    synchronized (this) {
      if (replayFails != null) {
        throw replayFails;
      }
      replayed.put(jobId, run);
      jobs.remove(jobId);
    }
  }

  @Override
  public int concurrentCalls() {
    return concurrentCalls;
  }

  @Override
  public void close() {}
}
