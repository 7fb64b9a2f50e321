package org.coalition.coordination.zookeeper;

import org.apache.curator.framework.CuratorFramework;
import org.coalition.bench.Ensemble;

/** Session expiry for tests that run their own TestingServer (the same method the chaos runs use). */
final class Faults {
  private Faults() {}

  static void expireSession(CuratorFramework client, String connectString) throws Exception {
    Ensemble.expireSession(client, connectString);
  }
}
