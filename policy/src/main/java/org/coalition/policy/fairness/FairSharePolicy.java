package org.coalition.policy.fairness;

import java.util.Collection;
import java.util.Map;
import java.util.Optional;

/**
 * FairShare (baseline): each site's share is proportional to its cores; usage is the work its jobs
 * received (SIMPL utility, wherever they ran). The smallest usage/share goes first.
 */
public final class FairSharePolicy implements JobSelectionPolicy {
  private final Map<String, Integer> cores;
  private final ContributionLedger usage = new ContributionLedger(Utility.SIMPL);

  /** @param cores each site's cores, which set its share */
  public FairSharePolicy(Map<String, Integer> cores) {
    cores.forEach((site, n) -> {
      if (n == null || n <= 0) {
        throw new IllegalArgumentException("FairShare: site " + site + " needs a positive number of cores, has " + n);
      }
    });
    this.cores = Map.copyOf(cores);
  }

  @Override
  public String name() {
    return "FAIRSHARE";
  }

  @Override
  public Optional<Selection> select(Collection<QueuedJob> fitting, double now) {
    // Highest score first, so score = -(usage / share).
    return SitePicker.highest(name(), fitting, site -> -usage.utility(site, now) / share(site), "-usage/cores");
  }

  private double share(String site) {
    Integer n = cores.get(site);
    if (n == null) {
      throw new IllegalArgumentException("FairShare: no share for site " + site + " (sites: " + cores.keySet() + ")");
    }
    return n;
  }

  @Override
  public void started(QueuedJob job, String executor, double start) {
    usage.started(job.id(), job.home(), executor, job.release(), start, job.cores());
  }

  @Override
  public void finished(String jobId, double end) {
    usage.finished(jobId, end);
  }
}
