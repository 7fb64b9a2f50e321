package org.coalition.coordination.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import org.apache.curator.framework.CuratorFramework;
import org.coalition.testbed.zookeeper.Ensemble;
import org.coalition.trust.StoreFiles;
import org.coalition.zookeeper.policy.Identity;
import org.junit.jupiter.api.Test;

/**
 * TLS between the servers of an ensemble (quorum TLS), on three real servers: they form their
 * quorum and serve over it, while on every quorum and election port a member's certificate (from
 * the federation's CA, which also makes client and server certificates) is refused, as is a peer
 * that speaks no TLS; the servers' own quorum certificate is taken (the control that shows the
 * refusals are the certificate's).
 */
class QuorumTlsIT {
  @Test
  void serversTalkOverTlsAndTakeNoMembersCertificateOnTheirQuorumPorts() throws Exception {
    try (Ensemble zk = Ensemble.start(3)) {
      Identity member = new Identity("qt", "north");
      try (CuratorFramework c = ZkFederation.client(zk.connectString(), new ZkTls(zk.identity(member), zk.trustStore()),
          ZkFederation.Options.DEFAULT)) {
        c.blockUntilConnected();
        assertTrue(c.getZookeeperClient().isConnected(), "the ensemble serves members over its quorum");
      }
      // every server listens on its election port, the leader alone on its quorum port
      int listening = 0;
      for (String address : zk.quorumAddresses()) {
        String host = address.substring(0, address.indexOf(':'));
        int port = Integer.parseInt(address.substring(address.indexOf(':') + 1));
        if (!listens(host, port)) {
          continue;
        }
        listening++;
        assertTrue(handshake(host, port, zk.quorumKeyStore(), zk.quorumTrustStore()),
            address + " takes the servers' own quorum certificate (the control)");
        assertFalse(handshake(host, port, zk.identity(member), zk.quorumTrustStore()),
            address + " refuses a member's certificate, from the federation's CA");
        assertFalse(answersPlainText(host, port), address + " answers no peer that speaks no TLS");
      }
      assertEquals(4, listening, "three election ports and the leader's quorum port listen: " + zk.quorumAddresses());
    }
  }

  private static boolean listens(String host, int port) {
    try (Socket s = new Socket(host, port)) {
      return s.isConnected();
    } catch (IOException e) {
      return false;
    }
  }

  /** Whether a TLS 1.3 handshake with {@code identity}'s certificate, trusting {@code trust}, completes and the server keeps the connection. */
  private static boolean handshake(String host, int port, Path identity, Path trust) throws GeneralSecurityException {
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
  private static boolean answersPlainText(String host, int port) {
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
