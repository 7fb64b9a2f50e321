package org.coalition.testbed.zookeeper;

import java.io.IOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.coalition.trust.StoreFiles;

/**
 * What a ZooKeeper server's quorum or election port takes from a peer: a TLS 1.3 handshake with a
 * given certificate, or plain bytes. The testbed's ensembles and the container tier's servers are
 * probed the same way.
 */
public final class QuorumProbe {
  private QuorumProbe() {}

  /** Whether something listens on {@code host:port}. */
  public static boolean listens(String host, int port) {
    try (Socket s = new Socket(host, port)) {
      return s.isConnected();
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * Whether a TLS 1.3 handshake with {@code identity}'s certificate (a PKCS #12 store, its password
   * beside it), trusting {@code trust}, completes and the server keeps the connection.
   */
  public static boolean takes(String host, int port, Path identity, Path trust) throws GeneralSecurityException {
    KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    kmf.init(StoreFiles.load(identity, true), StoreFiles.password(identity, true));
    TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(StoreFiles.load(trust, false));
    SSLContext ctx = SSLContext.getInstance("TLSv1.3");
    ctx.init(kmf.getKeyManagers(), tmf.getTrustManagers(), null);
    try (SSLSocket s = (SSLSocket) ctx.getSocketFactory().createSocket(host, port)) {
      s.setSoTimeout(3000);
      s.startHandshake();
      // TLS 1.3: the server checks the client's certificate after the client's side is done, and
      // refuses it with an alert the client reads on its first read; a server that took it waits
      // for the peer's first message (a read that times out)
      try {
        return s.getInputStream().read() >= 0;
      } catch (SocketTimeoutException e) {
        return true;
      }
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * Whether the port answers a peer that sends plain bytes instead of a TLS handshake with
   * anything but a TLS alert (a record of type 21) or a closed connection.
   */
  public static boolean answersPlainText(String host, int port) {
    try (Socket s = new Socket(host, port)) {
      s.setSoTimeout(3000);
      s.getOutputStream().write("\0\0\0\0\0\0\0\1hello, no TLS here\n".getBytes(StandardCharsets.US_ASCII));
      s.getOutputStream().flush();
      int first = s.getInputStream().read();
      return first >= 0 && first != 21;
    } catch (IOException e) {
      return false;
    }
  }
}
