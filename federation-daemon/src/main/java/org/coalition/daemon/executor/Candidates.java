package org.coalition.daemon.executor;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import org.coalition.coordination.Coordination;
import org.coalition.coordination.JobSpec;
import org.coalition.coordination.SiteLedger;
import org.coalition.policy.fairness.DirectContrPolicy;
import org.coalition.policy.fairness.QueuedJob;
import org.coalition.policy.fairness.Selection;
import org.coalition.policy.fairness.Utility;

/**
 * Foreign jobs in the order DirectContr serves them (the home with the highest priority first,
 * its longest-waiting job first), one at a time: the caller takes a job or passes to the next,
 * and each pick comes with its reason. The one candidate-selection routine of the executor side,
 * used both when pilots are submitted and when a pilot asks for work.
 */
final class Candidates implements Iterator<Candidates.Pick> {
  /** A job in its turn, and why it is its turn. */
  record Pick(JobSpec job, String reason) {}

  private final String policy;
  private final Map<String, Double> priorities;
  private final List<QueuedJob> left = new ArrayList<>();
  private final Map<String, JobSpec> specs = new HashMap<>();

  /** {@code jobs} (already filtered to those that fit) ordered by {@code priorities} of their homes, under {@code policy}'s name. */
  Candidates(List<JobSpec> jobs, String policy, Map<String, Double> priorities) {
    this.policy = policy;
    this.priorities = priorities;
    for (JobSpec j : jobs) {
      String id = j.ref().toString();
      left.add(new QueuedJob(id, j.home(), j.release(), j.cores()));
      specs.put(id, j);
    }
  }

  /** {@code fitting} in DirectContr's order under {@code utility}, by the homes' priorities in {@code coordination}'s ledgers now. */
  static Candidates of(List<JobSpec> fitting, Coordination coordination, Utility utility) {
    return new Candidates(fitting, utility + "_DIRECT", priorities(coordination, utility));
  }

  /** Each site's DirectContr priority (contribution minus utility) under {@code utility}, from {@code coordination}'s ledgers now. */
  static Map<String, Double> priorities(Coordination coordination, Utility utility) {
    double now = coordination.now();
    Map<String, Double> priorities = new HashMap<>();
    for (Map.Entry<String, SiteLedger> e : coordination.ledgers().entrySet()) {
      priorities.put(e.getKey(), e.getValue().priority(utility, now));
    }
    return priorities;
  }

  @Override
  public boolean hasNext() {
    return !left.isEmpty();
  }

  @Override
  public Pick next() {
    Selection s = DirectContrPolicy.byPriority(policy, left, site -> priorities.getOrDefault(site, 0.0))
        .orElseThrow(NoSuchElementException::new);
    left.remove(s.job());
    return new Pick(specs.get(s.job().id()), s.reason());
  }
}
