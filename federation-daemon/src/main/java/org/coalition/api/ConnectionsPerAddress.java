package org.coalition.api;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.SocketChannelEndPoint;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Holds each remote client to {@code limit} open connections of the API, so that one host's slow
 * clients cannot take the API's whole connection limit and keep everyone else waiting in the
 * kernel's backlog (issue #49, attack 13: 4,200 slow connections made fresh clients wait 5-8 s).
 * A connection past its client's limit is closed as soon as it opens, before it is read.
 *
 * <p>A client is an IPv4 address, or an IPv6 address's /64 (a host with one /64 has 2^64
 * addresses to draw from). Loopback is not held: the daemon's own host reaches it there (the
 * command line, the dashboard, pilots of a one-machine trial), and a local user who wants to slow
 * the host has simpler ways. Only network-level connections count: with TLS, the decrypted HTTP
 * connection above a socket is the same client.
 *
 * <p>Jetty 12.0's core limits connections per connector ({@code ConnectionLimit}) and requests per
 * client ({@code DoSFilter}, a servlet filter this API does not use), not connections per client;
 * hence this listener, which Jetty calls as each connection opens and closes.
 */
final class ConnectionsPerAddress implements Connection.Listener {
  private static final Logger LOG = LoggerFactory.getLogger(ConnectionsPerAddress.class);

  private final int limit;
  private final Map<String, Integer> open = new ConcurrentHashMap<>();
  /** Each counted connection's client, kept: a closed socket no longer tells its remote address. */
  private final Map<Connection, String> clients = new ConcurrentHashMap<>();
  private final Map<String, Boolean> warned = new ConcurrentHashMap<>();
  private final LongAdder shed = new LongAdder();

  ConnectionsPerAddress(int limit) {
    if (limit < 1) {
      throw new IllegalArgumentException("a client's connection limit must be at least 1, not " + limit);
    }
    this.limit = limit;
  }

  @Override
  public void onOpened(Connection connection) {
    Optional<String> client = client(connection);
    if (client.isEmpty()) {
      return;
    }
    clients.put(connection, client.get());
    int now = open.merge(client.get(), 1, Integer::sum);
    if (now > limit) {
      shed.increment();
      if (warned.putIfAbsent(client.get(), Boolean.TRUE) == null) {
        LOG.warn("API client {} holds {} connections, the most one client may; its further connections are closed unread until it has fewer",
            client.get(), limit);
      }
      connection.getEndPoint().close();
    }
  }

  @Override
  public void onClosed(Connection connection) {
    String client = clients.remove(connection);
    if (client != null && open.computeIfPresent(client, (k, n) -> n <= 1 ? null : n - 1) == null) {
      warned.remove(client);
    }
  }

  /** The connections closed so far because their client held its limit. */
  long shed() {
    return shed.sum();
  }

  private static Optional<String> client(Connection connection) {
    if (!(connection.getEndPoint() instanceof SocketChannelEndPoint)) {
      return Optional.empty();
    }
    SocketAddress remote = connection.getEndPoint().getRemoteSocketAddress();
    return remote instanceof InetSocketAddress inet && inet.getAddress() != null ? client(inet.getAddress()) : Optional.empty();
  }

  /** Whom {@code address} counts toward (an IPv4 address, an IPv6 address's /64): empty for loopback, which is not held. */
  static Optional<String> client(InetAddress address) {
    if (address.isLoopbackAddress()) {
      return Optional.empty();
    }
    if (address instanceof Inet6Address v6) {
      try {
        return Optional.of(InetAddress.getByAddress(Arrays.copyOf(Arrays.copyOf(v6.getAddress(), 8), 16)).getHostAddress() + "/64");
      } catch (UnknownHostException e) {
        throw new IllegalStateException("16 bytes are an IPv6 address", e);
      }
    }
    return Optional.of(address.getHostAddress());
  }
}
