package org.coalition.coordination.zookeeper;

import java.time.Duration;
import java.util.List;
import org.coalition.coordination.Coordination;
import org.coalition.coordination.CoordinationContract;
import org.coalition.testbed.zookeeper.Ensemble;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

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
