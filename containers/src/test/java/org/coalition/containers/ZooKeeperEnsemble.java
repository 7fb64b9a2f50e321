package org.coalition.containers;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.coalition.testbed.Eventually;
import org.coalition.trust.FederationCa;
import org.coalition.trust.StoreFiles;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.lifecycle.Startables;
import org.testcontainers.utility.MountableFile;

/**
 * Three ZooKeeper servers (docker/zookeeper) on the federation's network, as zk1, zk2 and zk3,
 * serving TLS on 2281 with their keys from docker/credentials ({@code credentials}), and talking to
 * each other over TLS with keys of the servers' own CA (docs/operations.md, "Quorum TLS").
 */
final class ZooKeeperEnsemble implements AutoCloseable {
  static final String CONNECT = "zk1:2281,zk2:2281,zk3:2281";
  static final int TLS_PORT = 2281;
  /** The port each server's election listens on (coalition-zookeeper's zoo.cfg). */
  static final int ELECTION_PORT = 3888;
  private final List<GenericContainer<?>> servers = new ArrayList<>();
  private final Logs logs;

  ZooKeeperEnsemble(Network network, Logs logs, Path credentials) {
    this.logs = logs;
    String image = "coalition/zookeeper:3.8";
    // Each server checks that a peer's quorum certificate names the address it connects from or that
    // address's reverse DNS name, which Docker's network answers as CONTAINER.NETWORK: the containers
    // get names of their own, and their quorum keys (from docker/credentials' quorum CA) name them.
    String networkName = Engine.client().inspectNetworkCmd().withNetworkId(network.getId()).exec().getName();
    FederationCa quorumCa = FederationCa.load(credentials.resolve("quorum-ca"));
    for (int i = 1; i <= 3; i++) {
      String container = "coalition-zk" + i + "-" + networkName;
      Path quorumKey = quorumCa.issueServer("zk" + i, List.of(container + "." + networkName), credentials.resolve("zk" + i + "-quorum-tier.p12"));
      GenericContainer<?> zk = Engine.container(image).withNetwork(network).withNetworkAliases("zk" + i)
          .withCreateContainerCmdModifier(cmd -> cmd.withName(container))
          .withCopyFileToContainer(MountableFile.forHostPath(credentials.resolve("zk" + i + ".p12"), 0600), "/etc/coalition-zookeeper/server.p12")
          .withCopyFileToContainer(MountableFile.forHostPath(credentials.resolve("zk" + i + ".p12.password"), 0600),
              "/etc/coalition-zookeeper/server.p12.password")
          .withCopyFileToContainer(MountableFile.forHostPath(credentials.resolve("federation-ca.p12"), 0644), "/etc/coalition-zookeeper/trust.p12")
          .withCopyFileToContainer(MountableFile.forHostPath(credentials.resolve("federation-ca.p12.password"), 0644),
              "/etc/coalition-zookeeper/trust.p12.password")
          // TLS between the servers, with keys of their own CA (docs/operations.md, "Quorum TLS")
          .withCopyFileToContainer(MountableFile.forHostPath(quorumKey, 0600), "/etc/coalition-zookeeper/quorum.p12")
          .withCopyFileToContainer(MountableFile.forHostPath(StoreFiles.passwordFile(quorumKey), 0600), "/etc/coalition-zookeeper/quorum.p12.password")
          .withCopyFileToContainer(MountableFile.forHostPath(credentials.resolve("quorum-ca.p12"), 0644), "/etc/coalition-zookeeper/quorum-trust.p12")
          .withCopyFileToContainer(MountableFile.forHostPath(credentials.resolve("quorum-ca.p12.password"), 0644),
              "/etc/coalition-zookeeper/quorum-trust.p12.password")
          .withEnv("ZK_ID", String.valueOf(i)).withEnv("ZK_SERVERS", "zk1 zk2 zk3").withExposedPorts(TLS_PORT)
          .withCreateContainerCmdModifier(logs.hostname("zk" + i)).withCreateContainerCmdModifier(Logs.netAdmin())
          .withLogConsumer(logs.to("zk" + i)).waitingFor(Engine.untilHealthy(Duration.ofMinutes(2)));
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
    Eventually.waitFor(() -> "zk" + id + " to serve again (its log: " + logs.tail("zk" + id, 4) + ")", Duration.ofMinutes(2), Duration.ofSeconds(2),
        () -> Engine.healthy(zk));
  }

  @Override
  public void close() {
    servers.forEach(GenericContainer::stop);
  }
}
