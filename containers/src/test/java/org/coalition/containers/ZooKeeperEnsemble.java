package org.coalition.containers;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.coalition.testbed.Eventually;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.lifecycle.Startables;
import org.testcontainers.utility.MountableFile;

/**
 * Three ZooKeeper servers (docker/zookeeper) on the federation's network, as zk1, zk2 and zk3,
 * serving TLS on 2281 with their keys from docker/credentials ({@code credentials}).
 */
final class ZooKeeperEnsemble implements AutoCloseable {
  static final String CONNECT = "zk1:2281,zk2:2281,zk3:2281";
  static final int TLS_PORT = 2281;
  private final List<GenericContainer<?>> servers = new ArrayList<>();
  private final Logs logs;

  ZooKeeperEnsemble(Network network, Logs logs, Path credentials) {
    this.logs = logs;
    String image = "coalition/zookeeper:3.8";
    for (int i = 1; i <= 3; i++) {
      GenericContainer<?> zk = Engine.container(image).withNetwork(network).withNetworkAliases("zk" + i)
          .withCopyFileToContainer(MountableFile.forHostPath(credentials.resolve("zk" + i + ".p12"), 0600), "/etc/coalition-zookeeper/server.p12")
          .withCopyFileToContainer(MountableFile.forHostPath(credentials.resolve("zk" + i + ".p12.password"), 0600),
              "/etc/coalition-zookeeper/server.p12.password")
          .withCopyFileToContainer(MountableFile.forHostPath(credentials.resolve("federation-ca.p12"), 0644), "/etc/coalition-zookeeper/trust.p12")
          .withCopyFileToContainer(MountableFile.forHostPath(credentials.resolve("federation-ca.p12.password"), 0644),
              "/etc/coalition-zookeeper/trust.p12.password")
          .withEnv("ZK_ID", String.valueOf(i)).withEnv("ZK_SERVERS", "zk1 zk2 zk3").withExposedPorts(TLS_PORT)
          .withCreateContainerCmdModifier(logs.hostname("zk" + i)).withCreateContainerCmdModifier(Logs.netAdmin())
          .withLogConsumer(logs.to("zk" + i)).waitingFor(Wait.forHealthcheck().withStartupTimeout(Duration.ofMinutes(2)));
      servers.add(zk);
    }
    Startables.deepStart(servers).join();
  }

  /** The ensemble as the host reaches it (published TLS ports on 127.0.0.1). */
  String hostConnectString() {
    return servers.stream().map(s -> "127.0.0.1:" + s.getMappedPort(TLS_PORT)).collect(Collectors.joining(","));
  }

  GenericContainer<?> server(int id) {
    return servers.get(id - 1);
  }

  /** Restarts server {@code id} as an operator would ({@code docker stop}, then start, its data kept); returns once it is healthy. */
  void restart(int id) {
    GenericContainer<?> zk = server(id);
    Engine.stop(zk, 30);
    long since = Engine.start(zk);
    logs.follow(zk, "zk" + id, since);
    Eventually.waitFor("zk" + id + " to serve again", Duration.ofMinutes(2), () -> "healthy".equals(Engine.health(zk)));
  }

  @Override
  public void close() {
    servers.forEach(GenericContainer::stop);
  }
}
