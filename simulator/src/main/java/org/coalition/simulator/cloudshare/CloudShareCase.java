package org.coalition.simulator.cloudshare;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.coalition.simulator.random.Variates;
import org.coalition.simulator.swf.SwfJob;

/**
 * One case of the experiment: a period of one log turned into a federation of sites.
 *
 * @param trace the log's name
 * @param start the period's start, seconds since the log's start
 * @param cores each site's cores
 * @param groups the tasks, in release order
 */
public record CloudShareCase(String trace, double start, Scenario scenario, int[] cores, List<TaskGroup> groups) {
  /** Hours of one period (the paper's 24). */
  public static final double PERIOD_HOURS = 24;

  public CloudShareCase {
    cores = cores.clone();
    groups = List.copyOf(groups);
  }

  public int sites() {
    return cores.length;
  }

  @Override
  public int[] cores() {
    return cores.clone();
  }

  /** Tasks in all groups. */
  public long tasks() {
    long n = 0;
    for (TaskGroup g : groups) {
      n += g.tasks();
    }
    return n;
  }

  /**
   * The jobs of {@code jobs} (in submit order) released in {@code [start, start + 24 h)} that ran,
   * normalised, their users mapped to sites with {@code random}.
   */
  public static CloudShareCase of(String trace, List<SwfJob> jobs, double start, Scenario scenario, int totalCores,
      int sites, Variates random) {
    Map<Long, Integer> siteOf = new HashMap<>();
    Map<Long, Boolean> local = new HashMap<>();
    List<TaskGroup> groups = new ArrayList<>();
    double end = start + PERIOD_HOURS * 3600;
    for (SwfJob job : jobs) {
      if (job.submit() < start || job.submit() >= end || !job.ran()) {
        continue;
      }
      // Jobs of an unknown user (-1) each count as their own user.
      long user = job.user() >= 0 ? job.user() : -1 - job.number();
      int site = siteOf.computeIfAbsent(user, u -> random.uniform(sites));
      boolean background = scenario == Scenario.BACKGROUND && local.computeIfAbsent(user, u -> random.uniform() < 0.5);
      long tasks = (long) job.processors() * (long) Math.ceil(job.runTime() / 3600);
      if (tasks > Integer.MAX_VALUE) {
        throw new IllegalArgumentException(trace + ": job " + job.number() + " normalises to " + tasks + " tasks");
      }
      groups.add(new TaskGroup(site, (job.submit() - start) / 3600, (int) tasks, background));
    }
    groups.sort(Comparator.comparingDouble(TaskGroup::release));
    int[] cores = scenario.cores(totalCores, sites);
    return new CloudShareCase(trace, start, scenario, cores, groups);
  }
}
