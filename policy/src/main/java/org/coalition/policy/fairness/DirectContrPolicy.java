package org.coalition.policy.fairness;

import java.util.Collection;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/**
 * DirectContr: the home site with the highest priority (contribution - utility) first, then its
 * longest-waiting job. A site that ran others' jobs when they needed it is served first when it
 * needs help.
 */
public final class DirectContrPolicy implements JobSelectionPolicy {
  private final ContributionLedger ledger;

  public DirectContrPolicy(Utility utility) {
    this.ledger = new ContributionLedger(utility);
  }

  @Override
  public String name() {
    return ledger.utility() + "_DIRECT";
  }

  public ContributionLedger ledger() {
    return ledger;
  }

  /**
   * The DirectContr rule over priorities kept elsewhere (the federation daemon reads them from
   * the shared ledger): the home site with the highest priority, then its longest-waiting job;
   * site id breaks ties.
   */
  public static Optional<Selection> byPriority(String name, Collection<QueuedJob> fitting, ToDoubleFunction<String> priority) {
    return SitePicker.highest(name, fitting, priority, "priority (contribution - utility)");
  }

  @Override
  public Optional<Selection> select(Collection<QueuedJob> fitting, double now) {
    return SitePicker.highest(name(), fitting, site -> ledger.priority(site, now), "priority (contribution - utility)");
  }

  @Override
  public void started(QueuedJob job, String executor, double start) {
    ledger.started(job.id(), job.home(), executor, job.release(), start, job.cores());
  }

  @Override
  public void finished(String jobId, double end) {
    ledger.finished(jobId, end);
  }
}
