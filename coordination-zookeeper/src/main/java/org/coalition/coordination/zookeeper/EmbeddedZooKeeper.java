package org.coalition.coordination.zookeeper;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;
import org.apache.zookeeper.server.embedded.ExitHandler;
import org.apache.zookeeper.server.embedded.ZooKeeperServerEmbedded;
import org.coalition.trust.FederationCa;
import org.coalition.zookeeper.policy.Identity;
import org.coalition.zookeeper.policy.ServerTls;

/**
 * One standalone ZooKeeper server in this process, through ZooKeeper's own embedding API, on a
 * free loopback port and a temporary folder removed at close: the demo's federation store. It
 * serves as production servers do (TLS with client certificates, the federation's policy:
 * {@link ServerTls}), with a CA of its own that issues the demo's identities. It is not a test
 * harness (tests and benchmarks use the testbed's {@code Ensemble}, which injects faults).
 */
public final class EmbeddedZooKeeper implements AutoCloseable {
  private final ZooKeeperServerEmbedded server;
  private final Path dir;
  private final int port;
  private final FederationCa ca;

  private EmbeddedZooKeeper(ZooKeeperServerEmbedded server, Path dir, int port, FederationCa ca) {
    this.server = server;
    this.dir = dir;
    this.port = port;
    this.ca = ca;
  }

  /** Starts the server (one per process: ZooKeeper keeps its TLS settings in system properties) and waits until it serves clients. */
  public static EmbeddedZooKeeper start() throws Exception {
    return start(Files.createTempDirectory("coalition-zookeeper-"));
  }

  /**
   * As {@link #start()}, with its CA, keys and data in {@code dir} (an empty folder the caller
   * removes when it must be gone even if this process is stopped before {@link #close}).
   */
  public static EmbeddedZooKeeper start(Path dir) throws Exception {
    FederationCa ca = FederationCa.create(dir.resolve("ca"), "embedded");
    Path key = ca.issueServer("localhost", List.of("127.0.0.1"), dir.resolve("server.p12"));
    int port;
    try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = probe.getLocalPort();
    }
    Properties config = new Properties();
    config.setProperty("secureClientPortAddress", "127.0.0.1");
    config.setProperty("tickTime", "2000");
    config.setProperty("admin.enableServer", "false");
    ServerTls.properties(port, key, ca.trustStore()).forEach(config::setProperty);
    ZooKeeperServerEmbedded server = ZooKeeperServerEmbedded.builder().baseDir(Files.createDirectories(dir.resolve("server"))).configuration(config)
        .exitHandler(ExitHandler.LOG_ONLY).build();
    server.start(30_000);
    return new EmbeddedZooKeeper(server, dir, port, ca);
  }

  /** The address clients connect to (TLS). */
  public String connectString() {
    return "127.0.0.1:" + port;
  }

  /** {@code who}'s TLS identity from the server's own CA. */
  public ZkTls identity(Identity who) {
    return new ZkTls(issue(who), ca.trustStore());
  }

  /** {@code who}'s key store (its password beside it, owner-only), issued by the server's own CA. */
  public Path issue(Identity who) {
    return issue(who, List.of());
  }

  /** As {@link #issue(Identity)}, its certificate also naming {@code hosts} (a daemon's API serves TLS under them). */
  public Path issue(Identity who, List<String> hosts) {
    return ca.issue(who, hosts, dir.resolve("identities").resolve(who.federation() + "-" + who.name() + ".p12"));
  }

  /** The trust store of the server's CA (its password beside it). */
  public Path trustStore() {
    return ca.trustStore();
  }

  @Override
  public void close() throws IOException {
    server.close();
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }
}
