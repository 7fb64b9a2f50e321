package org.coalition.containers;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.lifecycle.Startables;

/** Three ZooKeeper servers (docker/zookeeper) on the federation's network, as zk1, zk2 and zk3. */
final class ZooKeeperEnsemble implements AutoCloseable {
  static final String CONNECT = "zk1:2181,zk2:2181,zk3:2181";
  private final List<GenericContainer<?>> servers = new ArrayList<>();

  ZooKeeperEnsemble(Network network, Logs logs) {
    String image = "coalition/zookeeper:3.8";
    for (int i = 1; i <= 3; i++) {
      GenericContainer<?> zk = Engine.container(image).withNetwork(network).withNetworkAliases("zk" + i)
          .withEnv("ZK_ID", String.valueOf(i)).withEnv("ZK_SERVERS", "zk1 zk2 zk3").withExposedPorts(2181)
          .withCreateContainerCmdModifier(logs.hostname("zk" + i)).withCreateContainerCmdModifier(Logs.netAdmin())
          .withLogConsumer(logs.to("zk" + i)).waitingFor(Wait.forHealthcheck().withStartupTimeout(Duration.ofMinutes(2)));
      servers.add(zk);
    }
    Startables.deepStart(servers).join();
  }

  /** The ensemble as the host reaches it (published ports on 127.0.0.1). */
  String hostConnectString() {
    return servers.stream().map(s -> "127.0.0.1:" + s.getMappedPort(2181)).collect(Collectors.joining(","));
  }

  GenericContainer<?> server(int id) {
    return servers.get(id - 1);
  }

  @Override
  public void close() {
    servers.forEach(GenericContainer::stop);
  }
}
