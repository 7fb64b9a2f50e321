package org.coalition.testbed.zookeeper;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingCluster;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.Watcher.Event.KeeperState;
import org.apache.zookeeper.ZooKeeper;

/**
 * Real ZooKeeper servers in this process (Curator's TestingServer or a TestingCluster), with the
 * faults the chaos runs inject: a server restarted, a session expired on the servers.
 */
public final class Ensemble implements AutoCloseable {
  private final TestingServer single;
  private final TestingCluster cluster;

  private Ensemble(TestingServer single, TestingCluster cluster) {
    this.single = single;
    this.cluster = cluster;
  }

  /** Starts {@code size} servers (1, or 3 as an ensemble with a quorum of 2). */
  public static Ensemble start(int size) throws Exception {
    if (size == 1) {
      return new Ensemble(new TestingServer(true), null);
    }
    if (size < 3) {
      throw new IllegalArgumentException("an ensemble has 1 server or at least 3, not " + size);
    }
    TestingCluster cluster = new TestingCluster(distinctPorts(size));
    cluster.start();
    return new Ensemble(null, cluster);
  }

  /**
   * {@code size} servers whose client, election and quorum ports are all different. Curator picks
   * each port on its own (a socket opened and closed), and two picks can be the same port: seen in
   * CI as two servers on one client port. Holding every socket open until all are picked rules that out.
   */
  private static List<InstanceSpec> distinctPorts(int size) throws IOException {
    List<ServerSocket> held = new ArrayList<>();
    try {
      for (int i = 0; i < 3 * size; i++) {
        held.add(new ServerSocket(0, 1, InetAddress.getLoopbackAddress()));
      }
    } finally {
      for (ServerSocket socket : held) {
        socket.close();
      }
    }
    List<InstanceSpec> specs = new ArrayList<>();
    for (int i = 0; i < size; i++) {
      specs.add(new InstanceSpec(null, held.get(3 * i).getLocalPort(), held.get(3 * i + 1).getLocalPort(), held.get(3 * i + 2).getLocalPort(),
          true, i + 1));
    }
    return specs;
  }

  public String connectString() {
    return single != null ? single.getConnectString() : cluster.getConnectString();
  }

  public int size() {
    return single != null ? 1 : cluster.getInstances().size();
  }

  /** Stops one server (picked by {@code random}) and starts it again; returns its id. */
  public int restartServer(Random random) throws Exception {
    if (single != null) {
      single.restart();
      return 1;
    }
    List<InstanceSpec> servers = new ArrayList<>(cluster.getInstances());
    return restart(servers.get(random.nextInt(servers.size())));
  }

  /** Stops the ensemble's leader and starts it again (the others elect a new one meanwhile); returns its id. */
  public int restartLeader() throws Exception {
    if (single != null) {
      single.restart();
      return 1;
    }
    for (InstanceSpec server : cluster.getInstances()) {
      if (mode(server).equals("leader")) {
        return restart(server);
      }
    }
    throw new IllegalStateException("the ensemble has no leader now");
  }

  private int restart(InstanceSpec server) throws Exception {
    cluster.killServer(server);
    Thread.sleep(300);
    cluster.restartServer(server);
    return server.getServerId();
  }

  /** What a server says it is ({@code leader}, {@code follower}, {@code standalone}), from the {@code srvr} command; empty when it does not answer. */
  private static String mode(InstanceSpec server) {
    try (Socket socket = new Socket("127.0.0.1", server.getPort())) {
      socket.setSoTimeout(5000);
      socket.getOutputStream().write("srvr".getBytes(StandardCharsets.US_ASCII));
      socket.getOutputStream().flush();
      String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
      return answer.lines().filter(l -> l.startsWith("Mode: ")).map(l -> l.substring(6).trim()).findFirst().orElse("");
    } catch (IOException e) {
      return "";
    }
  }

  /**
   * Expires the session {@code id} (with its {@code password}) on the servers, as a long partition would: a second
   * connection attaches to the same session and closes it, so the ensemble deletes the session's
   * ephemeral nodes and the client sees EXPIRED on its next contact.
   */
  public void expireSession(long id, byte[] password) throws Exception {
    expireSession(id, password, connectString());
  }

  /** As {@link #expireSession(long, byte[])}, for servers started elsewhere. */
  public static void expireSession(long id, byte[] password, String connectString) throws Exception {
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

  @Override
  public void close() throws IOException {
    if (single != null) {
      single.close();
    } else {
      cluster.close();
    }
  }
}
