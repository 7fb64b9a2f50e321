package org.coalition.daemon.base;

import java.security.cert.X509Certificate;
import java.util.Optional;

/**
 * Which member site of this federation a TLS peer's verified certificate names. The daemon uses it
 * both ways: its API serves an output only to the identity of the output's home site, and the home
 * accepts an output only from the identity of the site that wrote the result. The command line
 * wires it to the federation's identities; {@link #NONE} (no TLS between daemons: the demo, tests
 * on loopback) names no one, and the checks that need it are off.
 */
@FunctionalInterface
public interface PeerSites {
  PeerSites NONE = leaf -> Optional.empty();

  /** The site {@code leaf} names, or empty if it names no member of this federation. */
  Optional<String> site(X509Certificate leaf);
}
