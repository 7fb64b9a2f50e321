package org.coalition.coordination.zookeeper;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.security.GeneralSecurityException;
import java.security.cert.CertPathBuilderException;
import java.security.cert.CertPathValidatorException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSocket;
import org.coalition.zookeeper.policy.ServerTls;

/**
 * Why no ZooKeeper server of a connect string took a connection, in words a person acts on: a
 * server nobody listens at, a server whose certificate this party's trust store does not trust,
 * or a server that does not trust this party's certificate. ZooKeeper's client only sees a
 * closed connection in each case; this repeats the TLS handshake alone, with the same key and
 * trust, once a connection has failed.
 */
final class TlsProbe {
  /** How long each server gets to take the connection and to finish the handshake. */
  private static final int TIMEOUT_MILLIS = 3_000;
  /**
   * How long a server that finished the handshake gets to refuse the certificate after it: TLS
   * 1.3 sends the refusal at once, and a server that takes the certificate says nothing (it waits
   * for ZooKeeper's protocol); the servers are probed at once, so a failed connection costs this
   * much more, not this much per server.
   */
  private static final int REFUSAL_MILLIS = 1_500;

  private final ZkTls tls;

  TlsProbe(ZkTls tls) {
    this.tls = tls;
  }

  /** What went wrong with each server of {@code connectString}, or empty when each took a TLS connection. */
  Optional<String> why(String connectString) {
    String[] servers = connectString.replaceFirst("/.*$", "").split(",");
    // a thread per server (the common pool has one thread on two cores): all are probed at once
    ExecutorService threads = Executors.newFixedThreadPool(servers.length, r -> {
      Thread t = new Thread(r, "zookeeper-tls-probe");
      t.setDaemon(true);
      return t;
    });
    try {
      List<CompletableFuture<Optional<String>>> probes = new ArrayList<>();
      for (String server : servers) {
        int colon = server.lastIndexOf(':');
        String host = colon < 0 ? server : server.substring(0, colon);
        int port = colon < 0 ? 2281 : parsePort(server.substring(colon + 1));
        probes.add(CompletableFuture.supplyAsync(() -> probe(host.strip(), port).map(p -> server.strip() + ": " + p), threads));
      }
      List<String> found = new ArrayList<>();
      probes.forEach(p -> p.join().ifPresent(found::add));
      return found.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", found));
    } finally {
      threads.shutdownNow();
    }
  }

  private static int parsePort(String text) {
    try {
      return Integer.parseInt(text.strip());
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  private Optional<String> probe(String host, int port) {
    if (port < 1 || port > 65_535) {
      return Optional.of("not HOST:PORT");
    }
    Socket plain = new Socket();
    try {
      plain.connect(new InetSocketAddress(host, port), TIMEOUT_MILLIS);
    } catch (IOException e) {
      closeQuietly(plain);
      return Optional.of("nothing answers there (" + e.getMessage() + ")");
    }
    try (SSLSocket s = (SSLSocket) tls.tlsContext().getSocketFactory().createSocket(plain, host, port, true)) {
      s.setEnabledProtocols(new String[] {ServerTls.PROTOCOL});
      s.setSoTimeout(TIMEOUT_MILLIS);
      s.startHandshake();
      s.setSoTimeout(REFUSAL_MILLIS);
      try {
        // TLS 1.3: a server that refuses the client's certificate says so after its own part of the handshake
        s.getInputStream().read();
      } catch (SocketTimeoutException e) {
        return Optional.empty(); // the server waits for ZooKeeper's protocol: TLS is fine
      }
      return Optional.empty();
    } catch (SSLException e) {
      return Optional.of(describe(e));
    } catch (IOException e) {
      return Optional.of("the connection closed during TLS (" + e.getMessage() + "); is this the servers' secure client port?");
    } catch (GeneralSecurityException e) {
      return Optional.of("this party's key or trust store cannot make a TLS context: " + e.getMessage());
    }
  }

  /** Which side's certificate was not trusted, from the handshake's failure. */
  private String describe(SSLException e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof CertPathBuilderException || t instanceof CertPathValidatorException) {
        return "the server's certificate is not signed by the CA of " + tls.trustStore() + " (a server of another federation, or a trust"
            + " store from another CA: the federation's operator gives its trust.p12)";
      }
    }
    String message = String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT);
    if (message.contains("certificate_unknown") || message.contains("bad_certificate") || message.contains("unknown_ca")
        || message.contains("certificate_required")) {
      return "the server does not trust this party's certificate (" + tls.identityStore() + "): it trusts another CA than the one that"
          + " issued it; the servers' trust store must be the federation's trust.p12";
    }
    return "TLS failed: " + e.getMessage();
  }

  private static void closeQuietly(Socket s) {
    try {
      s.close();
    } catch (IOException e) {
      // nothing was open
    }
  }
}
