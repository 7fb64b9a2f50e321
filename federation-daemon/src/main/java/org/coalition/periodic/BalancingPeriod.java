package org.coalition.periodic;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntSupplier;
import org.coalition.coordination.Allowances;
import org.coalition.coordination.Coordination;
import org.coalition.coordination.CoordinationException;
import org.coalition.coordination.SiteStatus;
import org.coalition.policy.balancing.BalancingPlan;
import org.coalition.policy.balancing.Bilb;
import org.coalition.policy.balancing.LoadBalancer;
import org.coalition.policy.balancing.SiteLoad;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What one daemon does every period, without Quartz (which only triggers it): every site sweeps
 * its jobs for lost runs; the leader alone runs BILB over the live sites' queue lengths and
 * participation levels and publishes the allowances. (Ledgers need no period: a home credits the
 * executor in the same write that acknowledges a result.)
 */
public final class BalancingPeriod {
  private static final Logger LOG = LoggerFactory.getLogger(BalancingPeriod.class);

  private final Coordination coordination;
  private final LoadBalancer balancer;
  private long period;

  /** The outcome of one period, for logs, metrics and tests. */
  public record Outcome(boolean leader, int requeued, Allowances published) {}

  public BalancingPeriod(Coordination coordination) {
    this(coordination, new Bilb());
  }

  public BalancingPeriod(Coordination coordination, LoadBalancer balancer) {
    this.coordination = coordination;
    this.balancer = balancer;
  }

  /** One part of the period; a failure is logged and the next part still runs (the next period retries). */
  private int counted(String what, IntSupplier part) {
    try {
      return part.getAsInt();
    } catch (RuntimeException e) {
      LOG.warn("site {}: {} failed this period ({}); the next period retries", coordination.site(), what, e.getMessage());
      return 0;
    }
  }

  public synchronized Outcome run() {
    int requeued = counted("the lost-run sweep", coordination::requeueLost);
    if (!coordination.isLeader()) {
      return new Outcome(false, requeued, null);
    }
    Map<String, SiteStatus> live = coordination.liveSites();
    List<SiteLoad> loads = new ArrayList<>();
    live.values().stream().sorted((x, y) -> x.site().compareTo(y.site()))
        .forEach(s -> loads.add(new SiteLoad(s.site(), s.queueCoreSeconds(), s.participation())));
    BalancingPlan plan = balancer.balance(loads);
    Map<String, Allowances.Allowance> sites = new HashMap<>();
    plan.outcomes().forEach((site, o) -> sites.put(site, new Allowances.Allowance(o.sent(), o.received())));
    Allowances allowances = new Allowances(coordination.site(), ++period, coordination.now(), sites);
    try {
      coordination.publishAllowances(allowances);
    } catch (CoordinationException e) {
      // leadership moved between the check and the write: the new leader publishes its own
      LOG.info("period {} not published: {}", period, e.getMessage());
      return new Outcome(false, requeued, null);
    }
    LOG.info("period {}: {} live sites, {} core-seconds to move, requeued {}", period, loads.size(), Math.round(plan.totalMoved()), requeued);
    return new Outcome(true, requeued, allowances);
  }
}
