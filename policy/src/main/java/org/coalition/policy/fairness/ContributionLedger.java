package org.coalition.policy.fairness;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Each site's contribution and utility under one {@link Utility} (DirectContr). Contribution of o:
 * the utilities of jobs executed on o's machines, its own included. Utility of o: the utilities
 * of jobs o submitted, wherever they ran. Priority = contribution - utility, so purely local work
 * nets to zero. Finished jobs are folded into {@link LinearSummary}s, running jobs into
 * {@link RunningSums}: every query is O(1) whatever the history.
 */
public final class ContributionLedger {
  private final Utility utility;
  private final Map<String, Account> accounts = new HashMap<>();
  private final Map<String, Running> running = new HashMap<>();

  public ContributionLedger(Utility utility) {
    this.utility = Objects.requireNonNull(utility);
  }

  public Utility utility() {
    return utility;
  }

  /** A job started on {@code executor}'s machines; it counts until now while it runs. */
  public void started(String jobId, String home, String executor, double release, double start, int cores) {
    if (cores <= 0) {
      throw new IllegalArgumentException("job " + jobId + ": cores must be positive, was " + cores);
    }
    Running job = new Running(home, executor, release, start, cores);
    if (running.putIfAbsent(jobId, job) != null) {
      throw new IllegalStateException("job " + jobId + " is already running");
    }
    account(executor).runningContribution.add(release, start, cores, +1);
    account(home).runningUtility.add(release, start, cores, +1);
  }

  /** A running job ended: it moves from the running sums into the finished summaries. */
  public void finished(String jobId, double end) {
    Running job = running.remove(jobId);
    if (job == null) {
      throw new IllegalStateException("job " + jobId + " is not running");
    }
    if (end < job.start) {
      throw new IllegalArgumentException("job " + jobId + " ends at " + end + " before its start " + job.start);
    }
    Account executor = account(job.executor);
    Account home = account(job.home);
    executor.runningContribution.add(job.release, job.start, job.cores, -1);
    home.runningUtility.add(job.release, job.start, job.cores, -1);
    LinearSummary summary = utility.summaryOf(job.release, job.start, end, job.cores);
    executor.contribution = executor.contribution.plus(summary);
    home.utility = home.utility.plus(summary);
  }

  /** Records a job that already ended, in one step. */
  public void record(String jobId, String home, String executor, double release, double start, double end, int cores) {
    started(jobId, home, executor, release, start, cores);
    finished(jobId, end);
  }

  public double contribution(String site, double now) {
    Account a = accounts.get(site);
    return a == null ? 0.0 : a.contribution.at(now) + a.runningContribution.at(utility, now);
  }

  public double utility(String site, double now) {
    Account a = accounts.get(site);
    return a == null ? 0.0 : a.utility.at(now) + a.runningUtility.at(utility, now);
  }

  public double priority(String site, double now) {
    return contribution(site, now) - utility(site, now);
  }

  /** The folded history of finished jobs of a site (what the coordination layer stores). */
  public LinearSummary finishedContribution(String site) {
    Account a = accounts.get(site);
    return a == null ? LinearSummary.ZERO : a.contribution;
  }

  public LinearSummary finishedUtility(String site) {
    Account a = accounts.get(site);
    return a == null ? LinearSummary.ZERO : a.utility;
  }

  private Account account(String site) {
    return accounts.computeIfAbsent(Objects.requireNonNull(site, "site"), s -> new Account());
  }

  private static final class Account {
    LinearSummary contribution = LinearSummary.ZERO;
    LinearSummary utility = LinearSummary.ZERO;
    final RunningSums runningContribution = new RunningSums();
    final RunningSums runningUtility = new RunningSums();
  }

  private record Running(String home, String executor, double release, double start, int cores) {}
}
