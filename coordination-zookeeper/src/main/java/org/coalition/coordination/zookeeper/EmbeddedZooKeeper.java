package org.coalition.coordination.zookeeper;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Properties;
import java.util.stream.Stream;
import org.apache.zookeeper.server.embedded.ExitHandler;
import org.apache.zookeeper.server.embedded.ZooKeeperServerEmbedded;

/**
 * One standalone ZooKeeper server in this process, through ZooKeeper's own embedding API, on a
 * free loopback port and a temporary folder removed at close: the demo's federation store. It is
 * not a test harness (tests and benchmarks use the testbed's {@code Ensemble}, which injects faults).
 */
public final class EmbeddedZooKeeper implements AutoCloseable {
  private final ZooKeeperServerEmbedded server;
  private final Path dir;
  private final int port;

  private EmbeddedZooKeeper(ZooKeeperServerEmbedded server, Path dir, int port) {
    this.server = server;
    this.dir = dir;
    this.port = port;
  }

  /** Starts the server and waits until it serves clients. */
  public static EmbeddedZooKeeper start() throws Exception {
    Path dir = Files.createTempDirectory("coalition-zookeeper-");
    int port;
    try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = probe.getLocalPort();
    }
    Properties config = new Properties();
    config.setProperty("clientPort", Integer.toString(port));
    config.setProperty("clientPortAddress", "127.0.0.1");
    config.setProperty("tickTime", "2000");
    config.setProperty("admin.enableServer", "false");
    config.setProperty("4lw.commands.whitelist", "srvr,ruok");
    ZooKeeperServerEmbedded server = ZooKeeperServerEmbedded.builder().baseDir(dir).configuration(config)
        .exitHandler(ExitHandler.LOG_ONLY).build();
    server.start(30_000);
    return new EmbeddedZooKeeper(server, dir, port);
  }

  /** The address clients connect to. */
  public String connectString() {
    return "127.0.0.1:" + port;
  }

  @Override
  public void close() throws IOException {
    server.close();
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }
}
