package org.coalition.daemon;

import java.util.Optional;
import javax.net.ssl.SSLContext;
import org.coalition.daemon.base.PeerSites;

/**
 * TLS between daemons: the context the home's output fetches present (this site's identity and
 * the federation's trust), and who a peer's certificate names. {@link #NONE}: no TLS between
 * daemons (the demo, loopback tests), the JDK's defaults and no identity checks.
 *
 * @param outbound the client side's context, or empty for the JDK's default
 * @param peers which member a verified certificate names
 */
public record DaemonTls(Optional<SSLContext> outbound, PeerSites peers) {
  public static final DaemonTls NONE = new DaemonTls(Optional.empty(), PeerSites.NONE);
}
