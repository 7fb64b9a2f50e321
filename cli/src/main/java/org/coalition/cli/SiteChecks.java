package org.coalition.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import org.coalition.config.SiteConfig;
import org.coalition.coordination.CoordinationException;
import org.coalition.coordination.zookeeper.ZkCoordination;
import org.coalition.coordination.zookeeper.ZkFederation;
import org.coalition.coordination.zookeeper.ZkTls;
import org.coalition.handler.HandlerContext;
import org.coalition.handler.ResourceHandler;
import org.coalition.handler.ScriptRunner;
import org.coalition.handler.config.TextFile;
import org.coalition.trust.TrustException;
import org.coalition.zookeeper.policy.Identity;

/**
 * What the daemon checks of a site, past the file itself, before it connects to anything: the
 * federation's key and trust stores (and that the key is this site's), the operator token, the
 * API's TLS key store and its password, and the spool. One code path: {@code coalition daemon}
 * stops on these problems and {@code coalition config check} reports them, each naming the site
 * file's line of the key and saying how to put it right; no secret is ever shown.
 */
final class SiteChecks {
  private SiteChecks() {}

  /** Every problem the daemon would stop on, as {@code FILE:LINE: KEY: what is wrong}; empty when it would start. */
  static List<String> problems(SiteConfig c) {
    List<String> out = new ArrayList<>();
    try {
      identity(c);
    } catch (CoordinationException | TrustException e) {
      out.add(c.where("federation.identity") + ": " + e.getMessage());
    }
    try {
      secret(c.http().operatorTokenFile(), "the operator token");
    } catch (IOException e) {
      out.add(c.where("http.operator-token-file") + ": " + e.getMessage());
    }
    if (c.http().tls().isPresent()) {
      try {
        apiTls(c);
        DaemonTlsContexts.between(c.federation().identity(), c.federation().trust(), c.federation().name());
      } catch (IOException | GeneralSecurityException | RuntimeException e) {
        out.add(c.where("http.tls") + ": " + e.getMessage());
      }
    }
    spool(c.spool()).ifPresent(p -> out.add(c.where("spool") + ": " + p));
    return out;
  }

  /**
   * Whether the daemon could reach what it needs ({@code config check --online}): ZooKeeper, as
   * this site, and each batch system, asked for its load once; the problems, or empty.
   */
  static List<String> online(SiteConfig c) {
    List<String> out = new ArrayList<>();
    ZkFederation.Options options = new ZkFederation.Options(c.federation().sessionTimeout(), ZkFederation.Options.CONNECT_TIMEOUT);
    try (ZkCoordination zk = ZkFederation.connect(c.federation().zookeeper(), identity(c), Clock.systemUTC(), options)) {
      zk.liveSites(); // a read of the federation's tree, as this site
    } catch (CoordinationException e) {
      out.add(c.where("federation.zookeeper") + ": " + e.getMessage());
    }
    Path scratch = null;
    try {
      scratch = Files.createTempDirectory("coalition-check-");
      try (ResourceHandler handler = DaemonCommand.connect(c, new HandlerContext(c.site(), new ScriptRunner(scratch), () -> 0))) {
        handler.observe();
      }
    } catch (IOException | RuntimeException e) {
      out.add(c.where("handlers") + ": the batch system did not answer: " + e.getMessage());
    } finally {
      if (scratch != null) {
        scratch.toFile().delete();
      }
    }
    return out;
  }

  /** The site's federation identity, which must name this site of this federation (a copied site file often names another's). */
  static ZkTls identity(SiteConfig c) {
    ZkTls tls = new ZkTls(c.federation().identity(), c.federation().trust());
    Identity expected = new Identity(c.federation().name(), c.site());
    if (!tls.who().equals(expected)) {
      throw new CoordinationException(CoordinationException.Kind.INVALID, c.federation().identity() + ": its certificate names " + tls.who()
          + ", but the site file is site " + c.site() + " of federation " + c.federation().name() + "; give this site's own identity"
          + " (coalition federation issue --federation " + c.federation().name() + " " + c.site() + ")");
    }
    return tls;
  }

  /** A secret's file: must exist, be readable by its owner only, and hold the secret on its first line. */
  static String secret(Path file, String what) throws IOException {
    return TextFile.secret(file, what, 16);
  }

  /** The API's TLS ({@code http.tls}): its key store opened with its password, asking peers for a certificate of the federation's CA. */
  static Optional<SSLContext> apiTls(SiteConfig c) throws IOException, GeneralSecurityException {
    if (c.http().tls().isEmpty()) {
      return Optional.empty();
    }
    SiteConfig.Tls t = c.http().tls().get();
    if (!Files.isRegularFile(t.keystore())) {
      throw new IOException(t.keystore() + ": the API's key store is missing (a PKCS#12 file; coalition federation issue --host makes one)");
    }
    return Optional.of(DaemonTlsContexts.server(t.keystore(), secret(t.passwordFile(), "the keystore password").toCharArray(),
        c.federation().trust()));
  }

  /** What keeps the daemon from making and using {@code spool}, if anything. */
  private static Optional<String> spool(Path spool) {
    if (Files.exists(spool)) {
      if (!Files.isDirectory(spool)) {
        return Optional.of(spool + " is not a directory; name a directory the daemon keeps its state in (it makes it)");
      }
      return Files.isWritable(spool) ? Optional.empty() : Optional.of(spool + " is not writable by the user running the daemon");
    }
    Path parent = spool.toAbsolutePath().getParent();
    while (parent != null && !Files.exists(parent)) {
      parent = parent.getParent();
    }
    if (parent == null || !Files.isDirectory(parent) || !Files.isWritable(parent)) {
      return Optional.of(spool + " cannot be made: " + parent + " is not a directory the user running the daemon may write in");
    }
    return Optional.empty();
  }
}
