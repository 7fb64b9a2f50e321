package org.coalition.coordination.zookeeper;

import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.KeyStoreException;
import java.security.cert.X509Certificate;
import java.util.Collections;
import javax.net.ssl.SSLContext;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.zookeeper.ClientCnxnSocketNetty;
import org.apache.zookeeper.admin.ZooKeeperAdmin;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.common.ClientX509Util;
import org.coalition.coordination.CoordinationException;
import org.coalition.coordination.CoordinationException.Kind;
import org.coalition.trust.StoreFiles;
import org.coalition.trust.TrustException;
import org.coalition.zookeeper.policy.FederationAclProvider;
import org.coalition.zookeeper.policy.Identity;
import org.coalition.zookeeper.policy.ServerTls;

/**
 * How a party reaches the ensemble: over TLS 1.3 with its federation identity (a PKCS#12 key
 * store with the key and certificate {@code coalition federation issue} made, its password in
 * {@code STORE.password}, owner-only) and the federation's trust store (the CA's certificate).
 * The servers check the certificate; their {@code FederationAclProvider} takes the identity from it.
 */
public final class ZkTls {
  private final Path identityStore;
  private final Path trustStore;
  private final Identity who;

  /** Reads both stores now, so a wrong path, password or certificate is reported before any connection. */
  public ZkTls(Path identityStore, Path trustStore) {
    this.identityStore = identityStore;
    this.trustStore = trustStore;
    try {
      KeyStore ks = StoreFiles.load(identityStore, true);
      this.who = identityOf(identityStore, ks);
      StoreFiles.load(trustStore, false);
    } catch (TrustException e) {
      throw new CoordinationException(Kind.INVALID, e.getMessage(), e);
    }
  }

  /** The identity store: this party's key and certificate. */
  Path identityStore() {
    return identityStore;
  }

  /** The federation's trust store. */
  Path trustStore() {
    return trustStore;
  }

  /** A JSSE context with this identity and trust, for {@link TlsProbe}: ZooKeeper's client makes its own from the files. */
  SSLContext tlsContext() throws GeneralSecurityException {
    return StoreFiles.tlsContext(StoreFiles.load(identityStore, true), StoreFiles.password(identityStore, true), trustStore);
  }

  /** Who the identity store's certificate names. */
  public Identity who() {
    return who;
  }

  /** A fresh client configuration (ZooKeeper keeps per-handle state in it): TLS over Netty, this identity, this trust. */
  public ZKClientConfig clientConfig() {
    ZKClientConfig config = new ZKClientConfig();
    try (ClientX509Util x509 = new ClientX509Util()) {
      config.setProperty(ZKClientConfig.SECURE_CLIENT, "true");
      config.setProperty(ZKClientConfig.ZOOKEEPER_CLIENT_CNXN_SOCKET, ClientCnxnSocketNetty.class.getName());
      config.setProperty(x509.getSslKeystoreLocationProperty(), identityStore.toString());
      // password files, not passwords: a config also takes the JVM's zookeeper.* system properties, and an in-process
      // server's passwordPath there would win over a password given here
      config.setProperty(x509.getSslKeystorePasswdPathProperty(), StoreFiles.passwordFile(identityStore).toString());
      config.setProperty(x509.getSslKeystoreTypeProperty(), "PKCS12");
      config.setProperty(x509.getSslTruststoreLocationProperty(), trustStore.toString());
      config.setProperty(x509.getSslTruststorePasswdPathProperty(), StoreFiles.passwordFile(trustStore).toString());
      config.setProperty(x509.getSslTruststoreTypeProperty(), "PKCS12");
      // TLS 1.3 only, and its AEAD suites, as the servers (ServerTls): Debian's ZooKeeper 3.8 would otherwise allow TLS 1.2
      config.setProperty(x509.getSslProtocolProperty(), ServerTls.PROTOCOL);
      config.setProperty(x509.getSslEnabledProtocolsProperty(), ServerTls.PROTOCOL);
      config.setProperty(x509.getSslCipherSuitesProperty(), String.join(",", ServerTls.CIPHER_SUITES));
    }
    return config;
  }

  /**
   * A Curator builder for {@code connectString} that connects as this identity: each handle with a
   * fresh {@link #clientConfig()}, and the {@code coalition} auth added on every (re)connection.
   */
  public CuratorFrameworkFactory.Builder curator(String connectString) {
    return CuratorFrameworkFactory.builder()
        .connectString(connectString)
        .zookeeperFactory((connect, sessionTimeout, watcher, canBeReadOnly) ->
            new ZooKeeperAdmin(connect, sessionTimeout, watcher, canBeReadOnly, clientConfig()))
        .authorization(FederationAclProvider.SCHEME, new byte[0]);
  }

  private static Identity identityOf(Path store, KeyStore ks) {
    try {
      for (String alias : Collections.list(ks.aliases())) {
        if (ks.isKeyEntry(alias) && ks.getCertificate(alias) instanceof X509Certificate cert) {
          try {
            return Identity.of(cert.getSubjectX500Principal());
          } catch (IllegalArgumentException e) {
            throw new TrustException(store + ": " + e.getMessage() + "; the operator issues identities with coalition federation issue");
          }
        }
      }
    } catch (KeyStoreException e) {
      throw new TrustException(store + ": " + e.getMessage(), e);
    }
    throw new TrustException(store + ": holds no key with a certificate");
  }
}
