package org.coalition.coordination.zookeeper;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingCluster;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.Test;

/**
 * Smoke test: real ZooKeeper servers (Curator's in-process TestingServer and a 3-node
 * TestingCluster) take writes, and the ensemble keeps its quorum when one server dies.
 */
class ZooKeeperSmokeIT {
  private static final byte[] DATA = "hello".getBytes(StandardCharsets.UTF_8);

  @Test
  void standaloneServerTakesAConditionalWrite() throws Exception {
    try (TestingServer server = new TestingServer(true);
        CuratorFramework client = connect(server.getConnectString())) {
      client.create().creatingParentsIfNeeded().forPath("/coalition/smoke", DATA);
      Stat stat = new Stat();
      assertArrayEquals(DATA, client.getData().storingStatIn(stat).forPath("/coalition/smoke"));
      client.setData().withVersion(stat.getVersion()).forPath("/coalition/smoke", DATA);
      System.out.printf("[smoke] zookeeper: standalone server at %s took a versioned write%n", server.getConnectString());
    }
  }

  @Test
  void ensembleSurvivesTheLossOfOneServer() throws Exception {
    try (TestingCluster cluster = new TestingCluster(3)) {
      cluster.start();
      try (CuratorFramework client = connect(cluster.getConnectString())) {
        client.create().forPath("/before", DATA);
        InstanceSpec victim = cluster.getInstances().iterator().next();
        cluster.killServer(victim);
        client.create().forPath("/after", DATA);
        assertEquals(2, client.getChildren().forPath("/").stream().filter(n -> !n.equals("zookeeper")).count());
        System.out.printf("[smoke] zookeeper: 3-node ensemble kept its quorum after server %d died%n", victim.getServerId());
      }
    }
  }

  private static CuratorFramework connect(String connectString) throws InterruptedException {
    CuratorFramework client = CuratorFrameworkFactory.newClient(connectString, new ExponentialBackoffRetry(100, 5));
    client.start();
    if (!client.blockUntilConnected(30, TimeUnit.SECONDS)) {
      client.close();
      throw new AssertionError("no connection to ZooKeeper at " + connectString);
    }
    return client;
  }
}
