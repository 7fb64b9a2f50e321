package org.coalition.coordination.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.data.Stat;
import org.coalition.coordination.Coordination;
import org.coalition.coordination.CoordinationContract;
import org.coalition.coordination.SiteInfo;
import org.coalition.coordination.SiteStatus;
import org.coalition.testbed.Eventually;
import org.coalition.testbed.zookeeper.Ensemble;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The coordination contract against a real ZooKeeper server (the testbed's, over TLS with the federation's policy). */
class ZkCoordinationIT extends CoordinationContract {
  private static Ensemble server;
  private ZkTestFederation federation;

  @BeforeAll
  static void startServer() throws Exception {
    server = Ensemble.start(1);
  }

  @AfterAll
  static void stopServer() throws Exception {
    server.close();
  }

  @Override
  protected Coordination newHandle(String site) {
    return newHandle(site, Duration.ZERO);
  }

  @Override
  protected Coordination newHandle(String site, Duration restartGrace) {
    if (federation == null) {
      federation = new ZkTestFederation(server, clock, List.of("a", "b", "c"));
    }
    return federation.connect(site, new ZkFederation.Options(Duration.ofSeconds(10), Duration.ofSeconds(5), CLAIM_LEASE, MAX_CLAIMS_PER_MEMBER,
        restartGrace));
  }

  /**
   * The daemon states its status every round; a status unchanged is not written again, since each
   * write wakes every member's watch (ZooKeeper's own version of the node counts the writes).
   */
  @Test
  void anUnchangedStatusIsNotWrittenAgain() throws Exception {
    ZkTestFederation fed = new ZkTestFederation(server, clock, List.of("a", "b"));
    ZkPaths paths = new ZkPaths(fed.name);
    SiteStatus idle = new SiteStatus("a", 8, 0, 0, 0, 100);
    try (ZkCoordination a = fed.connect("a");
        CuratorFramework b = ZkFederation.client(fed.connectString, fed.tls("b"), ZkFederation.Options.DEFAULT)) {
      a.join(new SiteInfo("a", "https://a.example:8443/", 8), idle);
      Eventually.waitFor("a's live node", () -> existing(b, paths.live("a")) != null);
      int version = existing(b, paths.live("a")).getVersion();
      for (int round = 0; round < 5; round++) {
        a.updateStatus(idle);
      }
      assertEquals(version, existing(b, paths.live("a")).getVersion(), "five rounds of the same status wrote nothing");
      a.updateStatus(new SiteStatus("a", 8, 3600, 1, 0, 100));
      Eventually.waitFor("the changed status written", () -> existing(b, paths.live("a")).getVersion() == version + 1);
    }
  }

  private static Stat existing(CuratorFramework client, String path) {
    try {
      return client.checkExists().forPath(path);
    } catch (Exception e) {
      throw new AssertionError("reading " + path, e);
    }
  }

  @Override
  protected void expireSession(Coordination handle) {
    try {
      ZkCoordination.Session session = ((ZkCoordination) handle).session();
      server.expireSession(session.id(), session.password());
    } catch (Exception e) {
      throw new AssertionError("could not expire the session of " + handle.site(), e);
    }
  }
}
