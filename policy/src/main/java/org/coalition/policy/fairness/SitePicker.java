package org.coalition.policy.fairness;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;
import org.coalition.policy.text.Numbers;

/**
 * The shape every policy here shares: choose a home site by a score (higher first; site id breaks
 * ties), then that site's longest-waiting job.
 */
final class SitePicker {
  private SitePicker() {}

  /** Candidate jobs grouped by home site, sites in id order, each site's jobs longest-waiting first. */
  static TreeMap<String, List<QueuedJob>> bySite(Collection<QueuedJob> fitting) {
    TreeMap<String, List<QueuedJob>> sites = new TreeMap<>();
    for (QueuedJob job : fitting) {
      sites.computeIfAbsent(job.home(), s -> new ArrayList<>()).add(job);
    }
    sites.values().forEach(jobs -> jobs.sort(QueuedJob.LONGEST_WAITING));
    return sites;
  }

  /**
   * The site with the highest score (the first in id order among equals) and its
   * longest-waiting job, with a reason naming the scores.
   */
  static Optional<Selection> highest(
      String policy, Collection<QueuedJob> fitting, ToDoubleFunction<String> score, String scoreName) {
    TreeMap<String, List<QueuedJob>> sites = bySite(fitting);
    if (sites.isEmpty()) {
      return Optional.empty();
    }
    String best = null;
    double bestScore = Double.NEGATIVE_INFINITY;
    StringBuilder scores = new StringBuilder();
    for (String site : sites.keySet()) {
      double s = score.applyAsDouble(site);
      scores.append(scores.length() == 0 ? "" : ", ").append(site).append('=').append(Numbers.format(s));
      if (best == null || s > bestScore) {
        best = site;
        bestScore = s;
      }
    }
    QueuedJob job = sites.get(best).get(0);
    return Optional.of(new Selection(job, String.format(
        "%s: site %s has the highest %s among waiting sites (%s); its longest-waiting fitting job %s (released %s)",
        policy, best, scoreName, scores, job.id(), Numbers.format(job.release()))));
  }
}
