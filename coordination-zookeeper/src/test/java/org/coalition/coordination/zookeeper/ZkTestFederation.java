package org.coalition.coordination.zookeeper;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.coalition.testbed.zookeeper.Ensemble;
import org.coalition.zookeeper.policy.Identity;

/** A federation of test sites bootstrapped on a real ensemble, identities from the ensemble's CA; a fresh name per instance. */
public final class ZkTestFederation {
  private static final AtomicInteger COUNTER = new AtomicInteger();

  public final Ensemble ensemble;
  public final String connectString;
  public final String name;
  public final Clock clock;

  public ZkTestFederation(Ensemble ensemble, Clock clock, List<String> sites) {
    this(ensemble, clock, sites, MemberQuota.DEFAULT);
  }

  /** A federation whose members the servers each hold to {@code quota}. */
  public ZkTestFederation(Ensemble ensemble, Clock clock, List<String> sites, MemberQuota quota) {
    this.ensemble = ensemble;
    this.connectString = ensemble.connectString();
    this.clock = clock;
    this.name = "test" + COUNTER.incrementAndGet();
    ZkFederation.bootstrap(connectString, operator(), sites, quota, clock);
  }

  /** {@code party}'s TLS identity in this federation (a site's name, or {@link ZkFederation#OPERATOR}). */
  public ZkTls tls(String party) {
    return new ZkTls(ensemble.identity(new Identity(name, party)), ensemble.trustStore());
  }

  public ZkTls operator() {
    return tls(ZkFederation.OPERATOR);
  }

  public ZkCoordination connect(String site) {
    return connect(site, Duration.ofSeconds(10));
  }

  public ZkCoordination connect(String site, Duration sessionTimeout) {
    return connect(site, new ZkFederation.Options(sessionTimeout, Duration.ofSeconds(5)));
  }

  public ZkCoordination connect(String site, ZkFederation.Options options) {
    return ZkFederation.connect(connectString, tls(site), clock, options);
  }
}
