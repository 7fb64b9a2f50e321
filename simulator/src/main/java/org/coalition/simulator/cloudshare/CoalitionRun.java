package org.coalition.simulator.cloudshare;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import org.coalition.policy.fairness.JobSelectionPolicy;
import org.coalition.policy.fairness.QueuedJob;
import org.coalition.policy.fairness.Selection;
import org.coalition.simulator.engine.Engine;
import org.coalition.simulator.random.Variates;

/**
 * One schedule of a case: the sites of one coalition pool their cores, on the event engine.
 * Every core works whenever a task waits (work-conserving); a site's background tasks go first on
 * its own cores; otherwise the policy picks the federated task: with {@code null}, the one
 * released first (FCFS), else the policy's choice of home site and that site's longest-waiting
 * task. A released task takes a free core at home first (the CloudShare broker runs a task
 * locally when it can, event 1); other sites' free cores are visited in a random order (the
 * paper: "the algorithm selects one randomly"). Time is in hours; every task lasts one hour.
 *
 * <p>With unit tasks, every work-conserving schedule starts the same number of federated tasks
 * at the same moments, so the total wait of a coalition does not depend on the policy (the
 * paper's condition for using it as the coalition's value); only its split across sites does.
 */
final class CoalitionRun {
  private final CloudShareCase c;
  private final int members;
  private final JobSelectionPolicy policy;
  private final Variates random;
  private final Engine engine = new Engine();
  private final int[] free;
  private final List<ArrayDeque<Waiting>> federated = new ArrayList<>();
  private final List<ArrayDeque<Waiting>> background = new ArrayList<>();
  private final double[] wait;
  private final String[] names;
  private long started;

  private CoalitionRun(CloudShareCase c, int members, JobSelectionPolicy policy, Variates random) {
    this.c = c;
    this.members = members;
    this.policy = policy;
    this.random = random;
    int n = c.sites();
    this.free = new int[n];
    this.wait = new double[n];
    this.names = new String[n];
    for (int i = 0; i < n; i++) {
      names[i] = Integer.toString(i);
      free[i] = member(i) ? c.cores()[i] : 0;
      federated.add(new ArrayDeque<>());
      background.add(new ArrayDeque<>());
    }
  }

  /**
   * Each site's total wait (hours) of its federated tasks when only the sites of {@code members}
   * (a bit mask) share; 0 for the others.
   */
  static double[] waits(CloudShareCase c, int members, JobSelectionPolicy policy, Variates random) {
    CoalitionRun run = new CoalitionRun(c, members, policy, random);
    run.simulate();
    return run.wait;
  }

  private boolean member(int site) {
    return (members >>> site & 1) != 0;
  }

  private void simulate() {
    for (TaskGroup g : c.groups()) {
      if (member(g.site())) {
        engine.schedule(g.release(), e -> release(g));
      }
    }
    engine.run();
  }

  private void release(TaskGroup g) {
    Waiting w = new Waiting(g, g.tasks());
    if (g.background()) {
      background.get(g.site()).addLast(w);
      dispatch(g.site());
      return;
    }
    ArrayDeque<Waiting> queue = federated.get(g.site());
    queue.addLast(w);
    // Free cores can only be somewhere if nothing waited. The home site's come first (the broker
    // runs a task locally when it can); then the other sites' in a random order.
    if (free[g.site()] > 0) {
      dispatch(g.site());
    }
    int n = c.sites();
    int first = random.uniform(n);
    for (int k = 0; k < n && !queue.isEmpty(); k++) {
      int site = (first + k) % n;
      if (free[site] > 0) {
        dispatch(site);
      }
    }
  }

  /** Fills {@code site}'s free cores: its background tasks first, then federated ones. */
  private void dispatch(int site) {
    double now = engine.now();
    List<String> ids = policy == null ? null : new ArrayList<>();
    int count = 0;
    while (free[site] > 0) {
      ArrayDeque<Waiting> local = background.get(site);
      Waiting w;
      if (!local.isEmpty()) {
        w = local.peekFirst();
      } else {
        w = choose(now);
        if (w == null) {
          break;
        }
        wait[w.group.site()] += now - w.group.release();
        if (policy != null) {
          String id = Long.toString(started);
          policy.started(new QueuedJob(id, names[w.group.site()], w.group.release(), 1), names[site], now);
          ids.add(id);
        }
      }
      started++;
      free[site]--;
      count++;
      if (--w.left == 0) {
        (w.group.background() ? local : federated.get(w.group.site())).pollFirst();
      }
    }
    if (count > 0) {
      int freed = count;
      engine.schedule(now + 1, e -> finish(site, freed, ids));
    }
  }

  private void finish(int site, int count, List<String> ids) {
    if (ids != null) {
      for (String id : ids) {
        policy.finished(id, engine.now());
      }
    }
    free[site] += count;
    dispatch(site);
  }

  /** The federated task to start now, or null when none waits. */
  private Waiting choose(double now) {
    Waiting best = null;
    List<QueuedJob> heads = policy == null ? null : new ArrayList<>(c.sites());
    for (int s = 0; s < c.sites(); s++) {
      Waiting head = federated.get(s).peekFirst();
      if (head == null) {
        continue;
      }
      if (heads != null) {
        heads.add(new QueuedJob(names[s], names[s], head.group.release(), 1));
      } else if (best == null || head.group.release() < best.group.release()) {
        best = head;
      }
    }
    if (heads == null || heads.isEmpty()) {
      return best;
    }
    // Every policy picks a home site, then that site's longest-waiting job; the heads are enough.
    Selection pick = policy.select(heads, now).orElseThrow();
    return federated.get(Integer.parseInt(pick.job().home())).peekFirst();
  }

  private static final class Waiting {
    final TaskGroup group;
    int left;

    Waiting(TaskGroup group, int left) {
      this.group = group;
      this.left = left;
    }
  }
}
