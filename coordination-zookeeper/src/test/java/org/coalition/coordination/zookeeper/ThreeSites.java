package org.coalition.coordination.zookeeper;

import static org.coalition.coordination.zookeeper.HostileWrites.join;
import static org.coalition.testbed.Eventually.waitFor;

import java.time.Clock;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.coalition.coordination.JobRef;
import org.coalition.coordination.JobSpec;
import org.coalition.testbed.zookeeper.Ensemble;
import org.coalition.zookeeper.policy.Identity;

/**
 * Sites a, b and c of a new federation joined, a's job {@link #REF} published and seen by b; b
 * also as a raw ZooKeeper client with its own identity ({@link #b}), which writes what b's daemon
 * would not.
 */
record ThreeSites(ZkTestFederation fed, ZkPaths paths, ZkCoordination a, ZkCoordination bApi, ZkCoordination c, CuratorFramework b)
    implements AutoCloseable {
  static final JobRef REF = new JobRef("a", "j1");

  static ThreeSites withJobOfA(Ensemble server) {
    return withJobsOfA(server, ZkFederation.Options.DEFAULT, REF.jobId());
  }

  /** The three sites, a with {@code aOptions} (its lease and cap), and a's jobs {@code jobIds}. */
  static ThreeSites withJobsOfA(Ensemble server, ZkFederation.Options aOptions, String... jobIds) {
    ZkTestFederation fed = new ZkTestFederation(server, Clock.systemUTC(), List.of("a", "b", "c"));
    ThreeSites s = new ThreeSites(fed, new ZkPaths(fed.name), fed.connect("a", aOptions), fed.connect("b"), fed.connect("c"),
        ZkFederation.client(fed.connectString, fed.tls("b"), ZkFederation.Options.DEFAULT));
    join(s.a);
    join(s.bApi);
    join(s.c);
    for (String id : jobIds) {
      s.a.publish(JobSpec.builder(id, "a").cores(1).walltimeSeconds(60).build());
    }
    waitFor("b sees a's jobs", () -> s.bApi.queue().stream().filter(j -> j.home().equals("a")).count() == jobIds.length);
    return s;
  }

  /** {@code site}'s identity in this federation. */
  Identity id(String site) {
    return new Identity(fed.name, site);
  }

  @Override
  public void close() {
    b.close();
    c.close();
    bApi.close();
    a.close();
  }
}
