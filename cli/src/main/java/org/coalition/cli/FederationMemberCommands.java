package org.coalition.cli;

import java.nio.file.Path;
import java.security.KeyStoreException;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.coalition.coordination.CoordinationException;
import org.coalition.coordination.zookeeper.MemberQuota;
import org.coalition.coordination.zookeeper.ZkFederation;
import org.coalition.coordination.zookeeper.ZkMemberChanges;
import org.coalition.coordination.zookeeper.ZkTls;
import org.coalition.handler.config.Durations;
import org.coalition.trust.FederationCa;
import org.coalition.trust.StoreFiles;
import org.coalition.trust.TrustException;
import org.coalition.zookeeper.policy.Identity;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code coalition federation add|rotate|remove}: the operator changes who is a member. A site's
 * certificates stay valid until they expire, so each change also tells the ZooKeeper servers which
 * of them to refuse (zookeeper-policy's {@code Revocations}): {@code add} and {@code rotate} take
 * only the key they issue and later ones (rotate after an overlap), {@code remove} takes none.
 */
final class FederationMemberCommands {
  private FederationMemberCommands() {}

  /** The CA, the key store to write and the names the certificate is valid for, as {@code federation issue} takes them. */
  static final class NewKey {
    @Option(names = "--ca", required = true, paramLabel = "DIR", description = "The CA's folder (coalition federation ca).")
    Path ca;

    @Option(names = "--out", required = true, paramLabel = "FILE",
        description = "The site's key store to write (PKCS#12, mode 0600, its password in FILE.password).")
    Path out;

    @Option(names = "--host", paramLabel = "HOST",
        description = "A host name or address the certificate is also valid for (the daemon's HTTPS); repeat for each.")
    List<String> hosts = new ArrayList<>();

    /** Issues {@code site}'s key into {@code out}; returns when its certificate starts to be valid (ms). */
    long issue(Identity site) {
      FederationCa.load(ca).issue(site, hosts, out);
      try {
        X509Certificate cert = (X509Certificate) StoreFiles.load(out, true).getCertificate("identity");
        return cert.getNotBefore().getTime();
      } catch (KeyStoreException e) {
        throw new TrustException(out + ": cannot read the certificate just issued: " + e.getMessage(), e);
      }
    }
  }

  @Command(name = "add", mixinStandardHelpOptions = true,
      description = {"Add a member site: issue its key and certificate into --out, add it to the federation's tree, and have the"
          + " servers take this certificate and later ones of the site only (a site removed before comes back with its old keys"
          + " still refused). Connects as the operator (--identity); needs the CA (--ca)."})
  static final class Add implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @CommandLine.Mixin FederationCommand.Operator operator = new FederationCommand.Operator();

    @CommandLine.Mixin NewKey key = new NewKey();

    @CommandLine.Mixin FederationCommand.Quota quota = new FederationCommand.Quota();

    @Option(names = "--json", description = "Print the result as JSON.")
    boolean json;

    @Parameters(index = "0", paramLabel = "SITE", description = "The site's id.")
    String site;

    @Override
    public Integer call() {
      MemberQuota held = quota.quota();
      ZkTls tls = operator.tls();
      Identity identity = new Identity(tls.who().federation(), site);
      if (isMember(operator, tls, site)) {
        throw new CoordinationException(CoordinationException.Kind.INVALID, "'" + site + "' is already a member of federation "
            + identity.federation() + "; coalition federation rotate gives it a new key");
      }
      long issued = key.issue(identity); // first: a CA that cannot be read changes nothing in the federation
      ZkFederation.bootstrap(operator.zookeeper, tls, List.of(site), held, Clock.systemUTC());
      ZkMemberChanges.revokeBefore(operator.zookeeper, tls, site, issued, 0);
      FederationCommand.report(spec, json, result(identity, key.out, null), "added site " + identity + "; its key is in " + key.out
          + " (password in " + StoreFiles.passwordFile(key.out) + "): give it and the trust store to the site's admin");
      return ExitCodes.OK;
    }
  }

  @Command(name = "rotate", mixinStandardHelpOptions = true,
      description = {"Give a member site a new key and certificate (into --out) and, once --overlap has passed, have the servers"
          + " refuse every older certificate of the site. The site's admin installs the new key and restarts its daemon within"
          + " the overlap; --overlap 0s refuses the old keys at once (a key that leaked)."})
  static final class Rotate implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @CommandLine.Mixin FederationCommand.Operator operator = new FederationCommand.Operator();

    @CommandLine.Mixin NewKey key = new NewKey();

    @Option(names = "--overlap", defaultValue = "1h", paramLabel = "DURATION",
        description = "How long the old certificates are still taken (default ${DEFAULT-VALUE}; 0s: refused at once).")
    Duration overlap;

    @Option(names = "--json", description = "Print the result as JSON.")
    boolean json;

    @Parameters(index = "0", paramLabel = "SITE", description = "The member site.")
    String site;

    @Override
    public Integer call() {
      if (overlap.isNegative() || overlap.compareTo(Duration.ofDays(30)) > 0) {
        throw new IllegalArgumentException("--overlap must be between 0s and 30d, was " + Durations.format(overlap));
      }
      ZkTls tls = operator.tls();
      Identity identity = new Identity(tls.who().federation(), site);
      if (!isMember(operator, tls, site)) {
        // checked before the key is issued: no key is written for a site that is not a member
        throw new CoordinationException(CoordinationException.Kind.INVALID, "'" + site + "' is not a member of federation "
            + identity.federation() + "; add it with coalition federation add");
      }
      long issued = key.issue(identity);
      Instant from = Instant.now().plus(overlap);
      ZkMemberChanges.revokeBefore(operator.zookeeper, tls, site, issued, overlap.isZero() ? 0 : from.toEpochMilli());
      FederationCommand.report(spec, json, result(identity, key.out, overlap.isZero() ? Instant.now() : from),
          "new key of " + identity + " in " + key.out + "; its older certificates are refused from " + (overlap.isZero() ? "now" : from));
      return ExitCodes.OK;
    }
  }

  @Command(name = "remove", mixinStandardHelpOptions = true,
      description = {"Remove a member site: the servers refuse every certificate of it at once (its daemon, if still running, is"
          + " refused on its next request), its nodes and its published jobs leave the federation, and its name leaves the"
          + " member list. Adding it again later needs coalition federation add (a new key). Connects as the operator."})
  static final class Remove implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @CommandLine.Mixin FederationCommand.Operator operator = new FederationCommand.Operator();

    @Option(names = "--json", description = "Print the result as JSON.")
    boolean json;

    @Parameters(index = "0", paramLabel = "SITE", description = "The member site.")
    String site;

    @Override
    public Integer call() {
      ZkTls tls = operator.tls();
      ZkMemberChanges.remove(operator.zookeeper, tls, site);
      Identity identity = new Identity(tls.who().federation(), site);
      FederationCommand.report(spec, json, Map.of("removed", identity.toString()), "removed site " + identity
          + ": its certificates are refused and its jobs left the federation; stop its daemon (systemctl stop coalition@" + site + ")");
      return ExitCodes.OK;
    }
  }

  private static boolean isMember(FederationCommand.Operator operator, ZkTls tls, String site) {
    return ZkFederation.members(operator.zookeeper, tls).stream().anyMatch(m -> m.site().equals(site));
  }

  private static Map<String, Object> result(Identity identity, Path out, Instant oldRefusedFrom) {
    Map<String, Object> result = new LinkedHashMap<>();
    result.put("identity", identity.toString());
    result.put("keystore", out.toString());
    result.put("password", StoreFiles.passwordFile(out).toString());
    if (oldRefusedFrom != null) {
      result.put("olderCertificatesRefusedFrom", oldRefusedFrom.toString());
    }
    return result;
  }
}
