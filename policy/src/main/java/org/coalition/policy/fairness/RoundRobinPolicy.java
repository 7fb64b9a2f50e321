package org.coalition.policy.fairness;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * RoundRobin (baseline), as an LRU: a site never served yet first, otherwise the site whose most
 * recently started job started least recently.
 */
public final class RoundRobinPolicy implements JobSelectionPolicy {
  private final Map<String, Double> lastStart = new HashMap<>();

  @Override
  public String name() {
    return "ROUND_ROBIN";
  }

  @Override
  public Optional<Selection> select(Collection<QueuedJob> fitting, double now) {
    // Never served: +infinity; otherwise the older the last start, the higher the score.
    return SitePicker.highest(name(), fitting,
        site -> lastStart.containsKey(site) ? -lastStart.get(site) : Double.POSITIVE_INFINITY,
        "-(last start)");
  }

  @Override
  public void started(QueuedJob job, String executor, double start) {
    lastStart.merge(job.home(), start, Math::max);
  }

  @Override
  public void finished(String jobId, double end) {
    // RoundRobin looks at starts only.
  }
}
