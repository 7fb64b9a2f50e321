package org.coalition.zookeeper.policy;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The settings (zoo.cfg keys) of a server that serves a federation: TLS 1.3 on its secure client
 * port with client certificates required, its key and the federation's trust store (passwords read
 * from {@code STORE.password}), X.509 authentication, the {@link FederationAclProvider}, and
 * enforced quotas (the operator's limits on each member's nodes). The
 * testbed's servers, the demo's embedded one and docker/zookeeper's entrypoint all use these keys.
 */
public final class ServerTls {
  public static final String PROTOCOL = "TLSv1.3";
  public static final List<String> CIPHER_SUITES = List.of("TLS_AES_256_GCM_SHA384", "TLS_AES_128_GCM_SHA256", "TLS_CHACHA20_POLY1305_SHA256");

  private ServerTls() {}

  /** The zoo.cfg entries for a server on {@code securePort} with the key store {@code keyStore}, trusting {@code trustStore}. */
  public static Map<String, String> properties(int securePort, Path keyStore, Path trustStore) {
    Map<String, String> p = new LinkedHashMap<>();
    p.put("secureClientPort", Integer.toString(securePort));
    p.put("serverCnxnFactory", "org.apache.zookeeper.server.NettyServerCnxnFactory");
    tls(p, "ssl.", keyStore, trustStore);
    p.put("ssl.clientAuth", "need");
    p.put("authProvider.x509", "org.apache.zookeeper.server.auth.X509AuthenticationProvider");
    p.put("authProvider." + FederationAclProvider.SCHEME, FederationAclProvider.class.getName());
    // the hard quotas the operator sets on each member's jobs folder are refused past, not only logged
    // (a key ZooKeeper does not know becomes the system property zookeeper.KEY)
    p.put("enforceQuota", "true");
    return p;
  }

  /**
   * The zoo.cfg entries for TLS between the servers of an ensemble (quorum TLS): TLS 1.3 on the
   * quorum and election ports, with {@code quorumKey}, trusting {@code quorumTrust} alone, the
   * certificate of a CA that issues servers' quorum certificates only. Not the federation's CA:
   * a member's certificate comes from that one too, for client and server use, and ZooKeeper's
   * hostname check would pass it from the member's own host, so a member could join the quorum.
   * Peers check each other's host names (the certificates name the addresses in {@code server.N}).
   */
  public static Map<String, String> quorumProperties(Path quorumKey, Path quorumTrust) {
    Map<String, String> p = new LinkedHashMap<>();
    p.put("sslQuorum", "true");
    tls(p, "ssl.quorum.", quorumKey, quorumTrust);
    p.put("ssl.quorum.hostnameVerification", "true");
    return p;
  }

  /** The key store, the trust store (PKCS #12, passwords beside them) and TLS 1.3's AEAD suites, under {@code prefix}. */
  private static void tls(Map<String, String> p, String prefix, Path keyStore, Path trustStore) {
    p.put(prefix + "keyStore.location", keyStore.toString());
    p.put(prefix + "keyStore.passwordPath", keyStore + ".password");
    p.put(prefix + "keyStore.type", "PKCS12");
    p.put(prefix + "trustStore.location", trustStore.toString());
    p.put(prefix + "trustStore.passwordPath", trustStore + ".password");
    p.put(prefix + "trustStore.type", "PKCS12");
    p.put(prefix + "protocol", PROTOCOL);
    p.put(prefix + "enabledProtocols", PROTOCOL);
    p.put(prefix + "ciphersuites", String.join(",", CIPHER_SUITES));
  }
}
