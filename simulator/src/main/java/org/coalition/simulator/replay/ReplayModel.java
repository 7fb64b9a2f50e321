package org.coalition.simulator.replay;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.coalition.policy.fairness.JobSelectionPolicy;
import org.coalition.policy.fairness.PolicyName;
import org.coalition.policy.fairness.QueuedJob;
import org.coalition.policy.fairness.Selection;
import org.coalition.simulator.engine.Engine;
import org.coalition.simulator.random.Variates;
import org.coalition.simulator.swf.SwfJob;
import org.coalition.simulator.swf.SwfTrace;

/**
 * Replays a whole log on a federation of {@code sites} sites that split the log's cores equally;
 * each user belongs to one site (at random, seeded). A released job joins the federation queue;
 * its home site looks first (the broker runs work locally when it can, event 1), then the other
 * sites from a random one. Whenever a site has free cores it asks the policy, among the waiting
 * jobs that fit them, which to start (DESIGN.md's late binding); every policy picks a home site
 * and then that site's longest-waiting fitting job, so each site's first fitting job is offered.
 * Jobs keep their processors (clipped to the widest site) and run time. {@link #alone} replays
 * the same log with the same users at the same sites, each site running its own users' jobs only:
 * what each site would see without the federation.
 */
public final class ReplayModel {
  private final SwfTrace trace;
  private final PolicyName policyName;
  private final int[] cores;
  private final long seed;
  /** Whether sites run each other's jobs; without, each site runs its own users' jobs alone. */
  private final boolean federated;

  private Engine engine;
  private JobSelectionPolicy policy;
  private int[] free;
  private List<ArrayDeque<Job>> waiting;
  private double[] waitSum;
  private double[] waitMax;
  private long[] jobs;
  private long[] remote;
  private long[] forOthers;
  private double[] flowSum;
  private double[] work;
  private double[] workElsewhere;
  private String[] names;
  private Variates random;

  public ReplayModel(SwfTrace trace, int sites, int totalCores, PolicyName policy, long seed) {
    this(trace, sites, totalCores, policy, seed, true);
  }

  private ReplayModel(SwfTrace trace, int sites, int totalCores, PolicyName policy, long seed, boolean federated) {
    if (sites < 1 || sites > 1000) {
      throw new IllegalArgumentException("--sites must be between 1 and 1000, was " + sites);
    }
    if (totalCores < sites) {
      throw new IllegalArgumentException("the log's " + totalCores + " cores cannot give " + sites + " sites one core each");
    }
    this.trace = trace;
    this.policyName = policy;
    this.cores = new int[sites];
    for (int i = 0; i < sites; i++) {
      cores[i] = totalCores / sites + (i < totalCores % sites ? 1 : 0);
    }
    this.seed = seed;
    this.federated = federated;
  }

  /** The same replay (log, sites, users' homes, seed), each site running only its own users' jobs. */
  public ReplayModel alone() {
    int total = 0;
    for (int c : cores) {
      total += c;
    }
    return new ReplayModel(trace, cores.length, total, policyName, seed, false);
  }

  public ReplayResult run() {
    int n = cores.length;
    engine = new Engine();
    random = new Variates(seed);
    names = new String[n];
    Map<String, Integer> coreMap = new HashMap<>();
    for (int i = 0; i < n; i++) {
      names[i] = Integer.toString(i);
      coreMap.put(names[i], cores[i]);
    }
    policy = policyName.create(coreMap);
    free = cores.clone();
    waiting = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      waiting.add(new ArrayDeque<>());
    }
    waitSum = new double[n];
    waitMax = new double[n];
    jobs = new long[n];
    remote = new long[n];
    forOthers = new long[n];
    flowSum = new double[n];
    work = new double[n];
    workElsewhere = new double[n];
    int widest = 0;
    for (int c : cores) {
      widest = Math.max(widest, c);
    }
    Map<Integer, Integer> siteOf = new HashMap<>();
    long clipped = 0;
    long count = 0;
    long began = System.nanoTime();
    for (SwfJob j : trace.jobs()) {
      if (!j.ran()) {
        continue;
      }
      int user = j.user() >= 0 ? j.user() : -1 - (int) (j.number() % Integer.MAX_VALUE);
      int home = siteOf.computeIfAbsent(user, u -> random.uniform(n));
      int width = j.processors();
      if (width > widest) {
        width = widest;
        clipped++;
      }
      Job job = new Job(Long.toString(j.number()), home, j.submit(), width, j.runTime());
      engine.schedule(Math.max(engine.now(), j.submit()), e -> release(job));
      count++;
    }
    engine.run();
    double seconds = (System.nanoTime() - began) / 1e9;
    List<ReplayResult.SiteReport> reports = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      reports.add(new ReplayResult.SiteReport(i, cores[i], jobs[i], jobs[i] == 0 ? 0 : waitSum[i] / jobs[i], waitMax[i],
          remote[i], forOthers[i], jobs[i] == 0 ? 0 : flowSum[i] / jobs[i], work[i] == 0 ? 0 : workElsewhere[i] / work[i]));
    }
    String name = trace.file() == null ? "trace" : trace.file().getFileName().toString();
    return new ReplayResult(name, policyName.name(), reports, count, clipped, engine.fired(), seconds);
  }

  private void release(Job job) {
    ArrayDeque<Job> own = waiting.get(job.home);
    own.addLast(job);
    if (free[job.home] > 0) {
      dispatch(job.home);
    }
    if (!federated) {
      return;
    }
    // Another site may have room for it now: visit them from a random one.
    int n = cores.length;
    int first = random.uniform(n);
    for (int k = 0; k < n && !job.started; k++) {
      int site = (first + k) % n;
      if (free[site] >= job.cores) {
        dispatch(site);
      }
    }
  }

  /** Starts waiting jobs on {@code site}'s free cores as long as one fits. */
  private void dispatch(int site) {
    while (free[site] > 0) {
      List<QueuedJob> offered = new ArrayList<>();
      Map<String, Job> byId = new HashMap<>();
      for (int s = federated ? 0 : site; s < (federated ? cores.length : site + 1); s++) {
        for (Job j : waiting.get(s)) {
          if (j.cores <= free[site]) {
            offered.add(new QueuedJob(j.id, names[j.home], j.release, j.cores));
            byId.put(j.id, j);
            break;
          }
        }
      }
      if (offered.isEmpty()) {
        return;
      }
      Selection pick = policy.select(offered, engine.now()).orElseThrow();
      Job job = byId.get(pick.job().id());
      remove(waiting.get(job.home), job);
      start(job, site);
    }
  }

  private static void remove(ArrayDeque<Job> queue, Job job) {
    Iterator<Job> it = queue.iterator();
    while (it.hasNext()) {
      if (it.next() == job) {
        it.remove();
        return;
      }
    }
  }

  private void start(Job job, int site) {
    double now = engine.now();
    job.started = true;
    free[site] -= job.cores;
    double wait = now - job.release;
    waitSum[job.home] += wait;
    waitMax[job.home] = Math.max(waitMax[job.home], wait);
    jobs[job.home]++;
    flowSum[job.home] += wait + job.runTime;
    work[job.home] += job.cores * job.runTime;
    if (site != job.home) {
      remote[job.home]++;
      forOthers[site]++;
      workElsewhere[job.home] += job.cores * job.runTime;
    }
    policy.started(new QueuedJob(job.id, names[job.home], job.release, job.cores), names[site], now);
    engine.schedule(now + job.runTime, e -> end(job, site));
  }

  private void end(Job job, int site) {
    policy.finished(job.id, engine.now());
    free[site] += job.cores;
    dispatch(site);
  }

  private static final class Job {
    final String id;
    final int home;
    final double release;
    final int cores;
    final double runTime;
    boolean started;

    Job(String id, int home, double release, int cores, double runTime) {
      this.id = id;
      this.home = home;
      this.release = release;
      this.cores = cores;
      this.runTime = runTime;
    }
  }
}
