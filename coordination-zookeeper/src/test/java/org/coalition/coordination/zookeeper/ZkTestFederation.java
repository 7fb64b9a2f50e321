package org.coalition.coordination.zookeeper;

import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/** A federation of test sites bootstrapped on a real ensemble; a fresh name per instance. */
public final class ZkTestFederation {
  private static final AtomicInteger COUNTER = new AtomicInteger();
  public static final String OPERATOR_SECRET = "operator-secret";

  public final String connectString;
  public final String name;
  public final Clock clock;
  private final Map<String, String> secrets = new LinkedHashMap<>();

  public ZkTestFederation(String connectString, Clock clock, List<String> sites) {
    this.connectString = connectString;
    this.clock = clock;
    this.name = "test" + COUNTER.incrementAndGet();
    for (String site : sites) {
      secrets.put(site, site + "-secret-" + name);
    }
    ZkFederation.bootstrap(connectString, name, OPERATOR_SECRET, secrets, clock);
  }

  public String secret(String site) {
    return secrets.get(site);
  }

  public ZkCoordination connect(String site) {
    return connect(site, Duration.ofSeconds(10));
  }

  public ZkCoordination connect(String site, Duration sessionTimeout) {
    return connect(site, new ZkFederation.Options(sessionTimeout, Duration.ofSeconds(5)));
  }

  public ZkCoordination connect(String site, ZkFederation.Options options) {
    return ZkFederation.connect(connectString, name, site, secret(site), clock, options);
  }
}
