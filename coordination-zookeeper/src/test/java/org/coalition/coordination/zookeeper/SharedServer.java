package org.coalition.coordination.zookeeper;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.coalition.testbed.zookeeper.Ensemble;

/**
 * One single-server ensemble (a real server in a process of its own, over TLS with the policy)
 * shared by this module's IT classes that fault no server, only sessions: each works in a
 * federation of its own name ({@link ZkTestFederation}), so none sees another's nodes. Started at
 * the first class's need and stopped when the test JVM exits; each class started its own before.
 */
final class SharedServer {
  private static Ensemble ensemble;

  private SharedServer() {}

  static synchronized Ensemble get() throws Exception {
    if (ensemble == null) {
      Ensemble started = Ensemble.start(1);
      Runtime.getRuntime().addShutdownHook(new Thread(() -> {
        try {
          started.close();
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }, "shared-zookeeper-stop"));
      ensemble = started;
    }
    return ensemble;
  }
}
