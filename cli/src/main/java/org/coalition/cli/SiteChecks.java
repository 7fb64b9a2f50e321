package org.coalition.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLContext;
import org.coalition.config.SiteConfig;
import org.coalition.coordination.CoordinationException;
import org.coalition.coordination.zookeeper.ZkCoordination;
import org.coalition.coordination.zookeeper.ZkFederation;
import org.coalition.coordination.zookeeper.ZkTls;
import org.coalition.daemon.base.OperatorSettings;
import org.coalition.handler.HandlerContext;
import org.coalition.handler.HandlerFactories;
import org.coalition.handler.HandlerSettings;
import org.coalition.handler.HostProblem;
import org.coalition.handler.LocalUsers;
import org.coalition.handler.ResourceHandler;
import org.coalition.handler.ScriptRunner;
import org.coalition.handler.config.TextFile;
import org.coalition.trust.StoreFiles;
import org.coalition.trust.TrustException;
import org.coalition.zookeeper.policy.Identity;

/**
 * What the daemon checks of a site, past the file itself, before it connects to anything: the
 * federation's trust store and key (and that the key is this site's), the operator token, the
 * API's TLS key store and its password and its port, the spool, what each batch system's entry
 * names on this host (its factory's {@link HostProblem}s), and the accounts of a batch system that
 * runs jobs on this host. One code path: {@code coalition daemon}
 * stops on these problems and {@code coalition config check} reports them, each naming the site
 * file's line of the key and saying how to put it right; no secret is ever shown.
 */
final class SiteChecks {
  private static final Pattern LINE = Pattern.compile("[^:]*:([0-9]{1,9}):");

  private SiteChecks() {}

  /** Every problem the daemon would stop on, as {@code FILE:LINE: KEY: what is wrong}; empty when it would start. */
  static List<String> problems(SiteConfig c) {
    return problems(c, Set.of());
  }

  /**
   * The same checks, but those of the keys in {@code replaced} ({@code federation},
   * {@code http.operator-token-file}, {@code http.tls}, {@code http.port}, {@code spool}): what
   * {@code trial} replaces in its copy of a site file, whose other problems it reports with the
   * user's file and lines before it starts anything.
   */
  static List<String> problems(SiteConfig c, Set<String> replaced) {
    List<String> out = new ArrayList<>();
    if (!replaced.contains("federation")) {
      federation(c, out);
    }
    if (!replaced.contains("http.operator-token-file")) {
      try {
        secret(c.http().operatorTokenFile(), "the operator token");
      } catch (IOException e) {
        out.add(c.where("http.operator-token-file") + ": " + e.getMessage());
      }
    }
    if (c.http().tls().isPresent() && !replaced.contains("http.tls") && !replaced.contains("federation")) {
      try {
        apiTls(c);
        DaemonTlsContexts.between(c.federation().identity(), c.federation().trust(), c.federation().name());
      } catch (IOException | GeneralSecurityException | RuntimeException e) {
        out.add(c.where("http.tls") + ": " + e.getMessage());
      }
    }
    if (!replaced.contains("http.port")) {
      portTaken(c.http().bind(), c.http().port(), "http.port").ifPresent(p -> out.add(c.where("http.port") + ": " + p));
    }
    if (!replaced.contains("spool")) {
      spool(c.spool()).ifPresent(p -> out.add(c.where("spool") + ": " + p));
      try {
        runtimeParticipation(c);
      } catch (UncheckedIOException e) {
        out.add(c.where("spool") + ": " + e.getMessage());
      }
    }
    hostProblems(c, out);
    out.sort(Comparator.comparingInt(SiteChecks::line));
    return out;
  }

  /** The federation's trust store, then the site's identity, which must be this site's. */
  private static void federation(SiteConfig c, List<String> out) {
    try {
      if (!Files.exists(c.federation().trust())) {
        throw new TrustException(c.federation().trust() + ": the federation's trust store is missing");
      }
      StoreFiles.load(c.federation().trust(), false);
      try {
        identity(c);
      } catch (CoordinationException | TrustException e) {
        out.add(c.where("federation.identity") + ": " + e.getMessage());
      }
    } catch (TrustException e) {
      out.add(c.where("federation.trust") + ": " + e.getMessage() + " (the federation's trust.p12, from its operator)");
    }
  }

  /** What each batch system's entry names on this host, and the accounts of one that runs jobs here. */
  private static void hostProblems(SiteConfig c, List<String> out) {
    HandlerFactories factories = HandlerFactories.installed();
    for (int i = 0; i < c.handlers().size(); i++) {
      HandlerSettings h = c.handlers().get(i);
      String entry = "handlers[" + i + "]";
      for (HostProblem p : factories.find(h.type()).orElseThrow().hostProblems(h)) {
        String key = entry + "." + p.key();
        out.add((c.where(key).equals(key) ? c.where("handlers") + " " + key : c.where(key)) + ": " + p.message());
      }
    }
    if (c.handlers().stream().anyMatch(HandlerSettings::runsJobsOnThisHost)) {
      c.accounts().forEach((home, account) -> {
        if (LocalUsers.find(account).isEmpty()) {
          out.add(c.where("accounts." + home) + ": no account '" + account + "' on this host (getent passwd), where "
              + home + "'s jobs would run; make it (adduser --system " + account + ") or name another");
        }
      });
    }
  }

  /** The line a problem names ({@code FILE:LINE: ...}), for listing them in the file's order; 0 for one that names none. */
  private static int line(String problem) {
    Matcher m = LINE.matcher(problem);
    return m.lookingAt() ? Integer.parseInt(m.group(1)) : 0;
  }

  /**
   * The participation level an operator set through the API that the daemon would start with
   * (kept in the spool; {@code OperatorSettings}), if any: none when the site file's level has
   * changed since, as the daemon then takes the file's.
   */
  static Optional<OperatorSettings.Participation> runtimeParticipation(SiteConfig c) {
    Path dir = c.spool().resolve(DaemonCommand.OPERATOR_SETTINGS);
    if (!Files.isDirectory(dir)) {
      return Optional.empty();
    }
    return OperatorSettings.read(dir).filter(p -> p.over() == c.sharing().participation());
  }

  /**
   * What holds the API's port, if it cannot be bound now: found before the site joins its
   * federation (a daemon that joined and then could not serve would leave its claims to lapse);
   * {@code choice} names what chooses another port (the site file's key, a command's option).
   */
  static Optional<String> portTaken(String bind, int port, String choice) {
    try (ServerSocket probe = new ServerSocket()) {
      probe.setReuseAddress(true);
      probe.bind(new InetSocketAddress(bind, port));
      return Optional.empty();
    } catch (IOException e) {
      return Optional.of(bind + ":" + port + " cannot be served: " + e.getMessage() + "; another process holds it (ss -ltnp 'sport = :"
          + port + "' names it: a daemon of this site still running, or another service), or choose another " + choice);
    }
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
