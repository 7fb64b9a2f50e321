package org.coalition.testbed.zookeeper;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.zookeeper.Watcher.Event.KeeperState;
import org.apache.zookeeper.ZooKeeper;
import org.coalition.trust.FederationCa;
import org.coalition.zookeeper.policy.Identity;
import org.coalition.zookeeper.policy.ServerTls;

/**
 * Real ZooKeeper servers, each in a process of its own, serving federations as production
 * servers do: TLS 1.3 with client certificates from the ensemble's own CA, and the federation's
 * policy loaded ({@link ServerTls}). Tests get identities from {@link #identity}. The faults the
 * chaos runs inject are real ones: a server killed and started again, every server down for a
 * while, all of them stopped (SIGSTOP), a session expired on the servers.
 *
 * <p>Each server also has a plain client port on loopback, for the 'srvr' command, the expiry of a
 * session, and tests that show what a client without a certificate gets (nothing).
 */
public final class Ensemble implements AutoCloseable {
  private final Path dir;
  private final FederationCa ca;
  private final List<ServerProcess> servers;
  private final Map<Identity, Path> identities = new ConcurrentHashMap<>();
  private final Path quorumTrust;

  private Ensemble(Path dir, FederationCa ca, List<ServerProcess> servers, Path quorumTrust) {
    this.dir = dir;
    this.ca = ca;
    this.servers = servers;
    this.quorumTrust = quorumTrust;
  }

  /** Starts {@code size} servers (1, or 3 or more as an ensemble with a majority quorum) and waits until they serve. */
  public static Ensemble start(int size) throws Exception {
    return start(size, null, null);
  }

  /**
   * As {@link #start(int)}, the servers with the key {@code serverKey} and trusting {@code trust}
   * (an operator's own CA) instead of the ensemble's ({@link #identity} still issues from the ensemble's CA).
   */
  public static Ensemble start(int size, Path serverKey, Path trust) throws Exception {
    if (size != 1 && size < 3) {
      throw new IllegalArgumentException("an ensemble has 1 server or at least 3, not " + size);
    }
    Path dir = Files.createTempDirectory("coalition-ensemble-");
    FederationCa ca = FederationCa.create(dir.resolve("ca"), "testbed ensemble");
    Path key = serverKey != null ? serverKey : ca.issueServer("localhost", List.of("127.0.0.1"), dir.resolve("server.p12"));
    Path trusted = trust != null ? trust : ca.trustStore();
    // the servers' own CA for TLS between them (quorum TLS), apart from the members' (ServerTls.quorumProperties)
    FederationCa quorumCa = FederationCa.create(dir.resolve("quorum-ca"), "testbed ensemble quorum");
    Path quorumKey = quorumCa.issueServer("localhost", List.of("127.0.0.1"), dir.resolve("quorum.p12"));
    int[] ports = distinctPorts(4 * size);
    List<ServerProcess> servers = new ArrayList<>();
    for (int i = 0; i < size; i++) {
      servers.add(new ServerProcess(i + 1, dir.resolve("server" + (i + 1)), new int[] {ports[4 * i], ports[4 * i + 1], ports[4 * i + 2],
          ports[4 * i + 3]}));
    }
    Ensemble ensemble = new Ensemble(dir, ca, servers, quorumCa.trustStore());
    try {
      for (ServerProcess s : servers) {
        Map<String, String> settings = new LinkedHashMap<>(ServerTls.properties(s.securePort, key, trusted));
        if (size > 1) {
          settings.putAll(ServerTls.quorumProperties(quorumKey, quorumCa.trustStore()));
        }
        s.configure(settings, servers);
        s.start();
      }
      ensemble.awaitServing(Duration.ofSeconds(60));
      return ensemble;
    } catch (Exception e) {
      ensemble.close();
      throw e;
    }
  }

  /**
   * Ports held open together until all are picked, so no two are the same: picking them one at
   * a time (a socket opened and closed) once gave two servers one port in CI.
   */
  private static int[] distinctPorts(int count) throws IOException {
    List<ServerSocket> held = new ArrayList<>();
    try {
      for (int i = 0; i < count; i++) {
        held.add(new ServerSocket(0, 1, InetAddress.getLoopbackAddress()));
      }
      return held.stream().mapToInt(ServerSocket::getLocalPort).toArray();
    } finally {
      for (ServerSocket socket : held) {
        socket.close();
      }
    }
  }

  /** The servers' TLS ports: what members connect to. */
  public String connectString() {
    return servers.stream().map(s -> "127.0.0.1:" + s.securePort).collect(Collectors.joining(","));
  }

  /** The servers' key store for TLS between them (quorum TLS), from a CA of their own. */
  public Path quorumKeyStore() {
    return dir.resolve("quorum.p12");
  }

  /** The trust store the servers check each other's quorum certificates against: their own CA's, not the members'. */
  public Path quorumTrustStore() {
    return quorumTrust;
  }

  /** Each server's quorum and election ports (TLS between the servers when there are several), as host:port. */
  public List<String> quorumAddresses() {
    return servers.stream().flatMap(s -> Stream.of("127.0.0.1:" + s.quorumPort, "127.0.0.1:" + s.electionPort)).toList();
  }

  /** The servers' plain loopback ports: a client there has no certificate and so no identity. */
  public String plainConnectString() {
    return servers.stream().map(s -> "127.0.0.1:" + s.clientPort).collect(Collectors.joining(","));
  }

  public int size() {
    return servers.size();
  }

  /** The trust store (the ensemble CA's certificate) members are given. */
  public Path trustStore() {
    return ca.trustStore();
  }

  /** A key store with {@code who}'s key and certificate from the ensemble's CA (made once, then reused). */
  public Path identity(Identity who) {
    return identities.computeIfAbsent(who, w -> ca.issue(w, List.of(), dir.resolve("identities").resolve(w.federation() + "-" + w.name() + ".p12")));
  }

  /** The ensemble's CA, for tests that issue odd certificates. */
  public FederationCa ca() {
    return ca;
  }

  /** Kills one server (picked by {@code random}) and starts it again; returns its id. */
  public int restartServer(Random random) throws Exception {
    return restart(servers.get(random.nextInt(servers.size())));
  }

  /** Kills the ensemble's leader and starts it again (the others elect a new one meanwhile); returns its id. */
  public int restartLeader() throws Exception {
    if (servers.size() == 1) {
      return restart(servers.get(0));
    }
    for (ServerProcess s : servers) {
      if (s.mode().equals("leader")) {
        return restart(s);
      }
    }
    throw new IllegalStateException("the ensemble has no leader now");
  }

  /** Kills every server, waits {@code down}, starts them again and waits until they serve: clients see a disconnection, sessions live on. */
  public void restartAll(Duration down) throws Exception {
    for (ServerProcess s : servers) {
      s.kill();
    }
    Thread.sleep(down.toMillis());
    for (ServerProcess s : servers) {
      s.start();
    }
    awaitServing(Duration.ofSeconds(60));
  }

  /** Stops every server (SIGSTOP) for {@code pause}, then lets them go on: a hang, not a crash; connections stay open. */
  public void pause(Duration pause) throws Exception {
    for (ServerProcess s : servers) {
      s.signal(true);
    }
    try {
      Thread.sleep(pause.toMillis());
    } finally {
      for (ServerProcess s : servers) {
        s.signal(false);
      }
    }
  }

  private int restart(ServerProcess server) throws Exception {
    server.kill();
    Thread.sleep(300);
    server.start();
    return server.id;
  }

  /** Waits until every server answers 'srvr' as a leader, a follower or standalone. */
  private void awaitServing(Duration limit) throws Exception {
    long deadline = System.nanoTime() + limit.toNanos();
    for (ServerProcess s : servers) {
      while (s.mode().isEmpty()) {
        if (!s.alive() || System.nanoTime() > deadline) {
          throw new IllegalStateException("ZooKeeper server " + s.id + (s.alive() ? " did not serve within " + limit.toSeconds() + " s" : " exited")
              + "; the end of its log:\n" + s.logTail());
        }
        Thread.sleep(100);
      }
    }
  }

  /**
   * Expires the session {@code id} (with its {@code password}) on the servers, as a long partition would: a second
   * connection attaches to the same session and closes it, so the ensemble deletes the session's
   * ephemeral nodes and the client sees EXPIRED on its next contact.
   */
  public void expireSession(long id, byte[] password) throws Exception {
    expireSession(id, password, plainConnectString());
  }

  /** As {@link #expireSession(long, byte[])}, through a plain (certificate-less) client port of servers started elsewhere. */
  public static void expireSession(long id, byte[] password, String plainConnectString) throws Exception {
    CountDownLatch connected = new CountDownLatch(1);
    ZooKeeper twin = new ZooKeeper(plainConnectString, 10_000, e -> {
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
    try {
      for (ServerProcess s : servers) {
        s.kill();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }
}
