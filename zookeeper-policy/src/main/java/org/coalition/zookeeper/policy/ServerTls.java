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
    p.put("ssl.keyStore.location", keyStore.toString());
    p.put("ssl.keyStore.passwordPath", keyStore + ".password");
    p.put("ssl.keyStore.type", "PKCS12");
    p.put("ssl.trustStore.location", trustStore.toString());
    p.put("ssl.trustStore.passwordPath", trustStore + ".password");
    p.put("ssl.trustStore.type", "PKCS12");
    p.put("ssl.clientAuth", "need");
    p.put("ssl.protocol", PROTOCOL);
    p.put("ssl.enabledProtocols", PROTOCOL);
    p.put("ssl.ciphersuites", String.join(",", CIPHER_SUITES));
    p.put("authProvider.x509", "org.apache.zookeeper.server.auth.X509AuthenticationProvider");
    p.put("authProvider." + FederationAclProvider.SCHEME, FederationAclProvider.class.getName());
    // the hard quotas the operator sets on each member's jobs folder are refused past, not only logged
    // (a key ZooKeeper does not know becomes the system property zookeeper.KEY)
    p.put("enforceQuota", "true");
    return p;
  }
}
