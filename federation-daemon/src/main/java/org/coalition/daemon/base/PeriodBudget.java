package org.coalition.daemon.base;

import org.coalition.coordination.Allowances;

/**
 * The BILB budget of the current balancing period: how many core-seconds this site has sent out
 * and taken in, against the allowances the leader published. The counts restart with each period
 * (a new period number or a new leader). Thread-safe: the home side sends, pilots take.
 *
 * <p>Jobs are not divisible: a job goes out while the send allowance is not used up, and a pilot
 * is submitted while receive allowance is left, so the last one may pass the allowance by less
 * than one job; without that a job larger than a small allowance would never move.
 */
public final class PeriodBudget {
  /** Time limit assumed for a job that has none, when its core-seconds are counted. */
  public static final long NO_LIMIT_SECONDS = 24 * 3600;

  private final String site;
  private long period = -1;
  private String leader = "";
  private double sent;
  private double taken;
  private Allowances.Allowance allowance = new Allowances.Allowance(0, 0);

  public PeriodBudget(String site) {
    this.site = site;
  }

  /** Core-seconds of a job: cores times its time limit ({@link #NO_LIMIT_SECONDS} without one). */
  public static double coreSeconds(int cores, long seconds) {
    return (double) cores * (seconds > 0 ? seconds : NO_LIMIT_SECONDS);
  }

  /** Moves to the period {@code published} describes, restarting the counts when it is a new one. */
  public synchronized void enter(Allowances published) {
    if (published.period() != period || !published.leader().equals(leader)) {
      period = published.period();
      leader = published.leader();
      sent = 0;
      taken = 0;
    }
    allowance = published.of(site);
  }

  /** Counts {@code coreSeconds} as sent, unless the send allowance is used up already. */
  public synchronized boolean trySend(double coreSeconds) {
    if (sent >= allowance.send()) {
      return false;
    }
    sent += coreSeconds;
    return true;
  }

  /** Counts {@code coreSeconds} sent a moment ago as not sent after all (the job stayed home). */
  public synchronized void giveBack(double coreSeconds) {
    sent = Math.max(0, sent - coreSeconds);
  }

  /** Counts {@code coreSeconds} as taken in. */
  public synchronized void take(double coreSeconds) {
    taken += coreSeconds;
  }

  /** Receive allowance left once {@code reserved} core-seconds (pilots still waiting) are counted too. */
  public synchronized double receiveLeft(double reserved) {
    return allowance.receive() - taken - reserved;
  }

  public synchronized double sent() {
    return sent;
  }

  public synchronized double sendAllowance() {
    return allowance.send();
  }
}
