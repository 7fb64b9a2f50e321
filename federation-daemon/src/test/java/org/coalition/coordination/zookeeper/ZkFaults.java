package org.coalition.coordination.zookeeper;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.Watcher.Event.KeeperState;
import org.apache.zookeeper.ZooKeeper;

/** Faults injected into real ZooKeeper sessions. */
public final class ZkFaults {
  private ZkFaults() {}

  /**
   * Expires {@code client}'s current session on the servers, as a long partition would: a second
   * connection attaches to the same session and closes it, so the ensemble deletes the session's
   * ephemeral nodes and the original client sees EXPIRED on its next contact.
   */
  public static void expireSession(CuratorFramework client, String connectString) throws Exception {
    ZooKeeper zk = client.getZookeeperClient().getZooKeeper();
    long id = zk.getSessionId();
    byte[] password = zk.getSessionPasswd();
    CountDownLatch connected = new CountDownLatch(1);
    ZooKeeper twin = new ZooKeeper(connectString, 10_000, e -> {
      if (e.getState() == KeeperState.SyncConnected) {
        connected.countDown();
      }
    }, id, password);
    try {
      if (!connected.await(20, TimeUnit.SECONDS)) {
        throw new IllegalStateException("could not attach to session 0x" + Long.toHexString(id));
      }
    } finally {
      twin.close();
    }
  }
}
