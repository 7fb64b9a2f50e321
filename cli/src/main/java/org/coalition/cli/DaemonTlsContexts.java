package org.coalition.cli;

import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import org.coalition.daemon.DaemonTls;
import org.coalition.daemon.base.PeerSites;
import org.coalition.trust.StoreFiles;
import org.coalition.zookeeper.policy.Identity;

/**
 * A daemon's TLS between daemons, from its site file: its API serves with the {@code http.tls} key
 * and asks peers for a certificate of the federation's CA; its output fetches show the site's
 * federation identity and trust that CA alone; a peer is the member its certificate names.
 */
final class DaemonTlsContexts {
  private DaemonTlsContexts() {}

  /** The API's context: {@code key} (opened with {@code password}) and the federation's {@code trust}. */
  static SSLContext server(Path key, char[] password, Path trust) throws GeneralSecurityException {
    KeyStore ks = StoreFiles.load(key, password);
    return context(ks, password, trust);
  }

  /** The client side: the site's identity store and the federation's trust, the peers its certificates name. */
  static DaemonTls between(Path identity, Path trust, String federation) throws GeneralSecurityException {
    char[] password = StoreFiles.password(identity, true);
    return new DaemonTls(Optional.of(context(StoreFiles.load(identity, true), password, trust)), peers(federation));
  }

  /** A member of {@code federation}, by the name its certificate gives. */
  static PeerSites peers(String federation) {
    return leaf -> {
      try {
        Identity who = Identity.of(leaf.getSubjectX500Principal());
        return who.federation().equals(federation) && !who.isOperator() ? Optional.of(who.name()) : Optional.empty();
      } catch (IllegalArgumentException e) {
        return Optional.empty();
      }
    };
  }

  private static SSLContext context(KeyStore keys, char[] password, Path trust) throws GeneralSecurityException {
    return StoreFiles.tlsContext(keys, password, trust);
  }
}
