package org.coalition.coordination.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.curator.framework.CuratorFramework;
import org.coalition.testbed.zookeeper.Ensemble;
import org.coalition.testbed.zookeeper.QuorumProbe;
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
        if (!QuorumProbe.listens(host, port)) {
          continue;
        }
        listening++;
        assertTrue(QuorumProbe.takes(host, port, zk.quorumKeyStore(), zk.quorumTrustStore()),
            address + " takes the servers' own quorum certificate (the control)");
        assertFalse(QuorumProbe.takes(host, port, zk.identity(member), zk.quorumTrustStore()),
            address + " refuses a member's certificate, from the federation's CA");
        assertFalse(QuorumProbe.answersPlainText(host, port), address + " answers no peer that speaks no TLS");
      }
      assertEquals(4, listening, "three election ports and the leader's quorum port listen: " + zk.quorumAddresses());
    }
  }
}
