package org.coalition.zookeeper.policy;

import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.List;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs.Perms;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.apache.zookeeper.server.DataNode;
import org.apache.zookeeper.server.auth.ServerAuthenticationProvider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The federation's write rules, loaded into every ZooKeeper server
 * ({@code authProvider.coalition=org.coalition.zookeeper.policy.FederationAclProvider}).
 *
 * <p>Authentication: a client that adds auth {@value #SCHEME} (with no data) on a TLS connection
 * gets the identity its verified client certificate names ({@link Identity}); without a
 * certificate, or with one that names no identity, the server refuses it (AUTHFAILED); so it does
 * a certificate the operator has revoked ({@link Revocations}: a removed site, a rotated key).
 *
 * <p>Authorisation: ZooKeeper asks {@link #matches} for every ACL entry of this scheme, with the
 * path, the permission asked for and, on a create, the new node's ACL. That is what plain ACLs
 * cannot see: under another site's job a member may create only {@code claim}, and only with
 * the ACL {@link FederationAcls#claim} prescribes (so it cannot take rights it should not have);
 * under its claim the claimer may create only {@code result}, with {@link FederationAcls#result}'s ACL.
 * On its own nodes a member has every right but ADMIN (so it can never re-ACL a node), and it
 * creates there only with the lists of its own nodes ({@link FederationAcls#isOwnNodeAcl}), and its
 * market records only write-once ({@link FederationAcls#sealed}).
 * A session whose certificate is revoked while it is open matches no entry from then on.
 */
public final class FederationAclProvider extends ServerAuthenticationProvider {
  /** The ACL scheme and the auth scheme clients add. */
  public static final String SCHEME = "coalition";
  private static final Logger LOG = LoggerFactory.getLogger(FederationAclProvider.class);
  /** Between the identity and its certificate's issue time in a session's auth id: {@code FED/SITE#MILLIS}. */
  static final String ISSUED = "#";

  @Override
  public String getScheme() {
    return SCHEME;
  }

  @Override
  public KeeperException.Code handleAuthentication(ServerObjs serverObjs, byte[] authData) {
    Certificate[] chain = serverObjs.getCnxn().getClientCertificateChain();
    if (chain == null || chain.length == 0 || !(chain[0] instanceof X509Certificate leaf)) {
      LOG.warn("refused {} auth from {}: no client certificate (the client must connect over TLS with its identity)", SCHEME,
          serverObjs.getCnxn().getRemoteSocketAddress());
      return KeeperException.Code.AUTHFAILED;
    }
    try {
      Identity identity = Identity.of(leaf.getSubjectX500Principal());
      long issued = leaf.getNotBefore().getTime();
      if (revoked(serverObjs, identity, issued)) {
        LOG.warn("refused {} auth from {}: the certificate of {} (serial {}) is revoked by the federation's operator", SCHEME,
            serverObjs.getCnxn().getRemoteSocketAddress(), identity, leaf.getSerialNumber().toString(16));
        return KeeperException.Code.AUTHFAILED;
      }
      // the certificate's issue time travels with the session's requests (a follower forwards them to the
      // leader with their auth ids, not their connection), so every server can check a revocation made since
      serverObjs.getCnxn().addAuthInfo(new Id(SCHEME, identity + ISSUED + issued));
      return KeeperException.Code.OK;
    } catch (IllegalArgumentException e) {
      LOG.warn("refused {} auth from {}: {}", SCHEME, serverObjs.getCnxn().getRemoteSocketAddress(), e.getMessage());
      return KeeperException.Code.AUTHFAILED;
    }
  }

  @Override
  public boolean matches(ServerObjs serverObjs, MatchValues m) {
    String id = m.getId();
    int mark = id.indexOf(ISSUED);
    Identity who;
    long issued;
    try {
      who = Identity.parse(mark < 0 ? id : id.substring(0, mark));
      issued = mark < 0 ? Long.MIN_VALUE : Long.parseLong(id.substring(mark + 1));
    } catch (IllegalArgumentException e) {
      return false;
    }
    if (revoked(serverObjs, who, issued)) {
      return false;
    }
    return allows(who, m.getAclExpr(), m.getPath(), m.getPerm(), m.getSetAcls());
  }

  /**
   * Whether the operator has revoked {@code who}'s certificate issued at {@code issued} (ms; the
   * session of an older server that did not record it: {@link Long#MIN_VALUE}, the oldest). The
   * operator's own certificates are not revocable here.
   */
  private static boolean revoked(ServerObjs serverObjs, Identity who, long issued) {
    if (who.isOperator()) {
      return false;
    }
    DataNode node = serverObjs.getZks().getZKDatabase().getNode(Revocations.path(who));
    return node != null && Revocations.revoked(node.getData(), issued, System.currentTimeMillis());
  }

  /**
   * Whether the ACL entry {@code rule} admits {@code who} asking for {@code perm} on {@code path}
   * ({@code setAcls}: the ACL of the node a create would make).
   */
  static boolean allows(Identity who, String rule, String path, int perm, List<ACL> setAcls) {
    int colon = rule.indexOf(':');
    if (colon < 0) {
      return false;
    }
    String kind = rule.substring(0, colon);
    String value = rule.substring(colon + 1);
    switch (kind) {
      case FederationAcls.SITE:
        // a member never changes an ACL (it could shut the others out of its ledger row or site
        // record), and makes its own nodes only with the lists a member's own nodes have
        return who.toString().equals(value) && perm != Perms.ADMIN && (perm != Perms.CREATE || createsOwnNode(who, path, setAcls));
      case FederationAcls.MEMBER:
        return value.equals(FederationAcls.ANY) || who.federation().equals(value);
      case FederationAcls.OPERATOR:
        return who.isOperator() && (value.equals(FederationAcls.ANY) || who.federation().equals(value));
      case FederationAcls.CLAIM: {
        if (!Identity.isIdentity(value)) {
          return false;
        }
        Identity home = Identity.parse(value);
        return perm == Perms.CREATE && who.federation().equals(home.federation()) && !who.equals(home) && !who.isOperator()
            && lastSegment(path).equals(FederationAcls.CLAIM) && FederationAcls.same(setAcls, FederationAcls.claim(who, home));
      }
      case FederationAcls.RESULT:
        return perm == Perms.CREATE && who.toString().equals(value) && lastSegment(path).equals(FederationAcls.RESULT)
            && FederationAcls.same(setAcls, FederationAcls.result(who));
      default:
        return false;
    }
  }

  @Override
  public boolean isAuthenticated() {
    return true;
  }

  /** Whether {@code id} is a rule this provider knows, so a node cannot be made with an ACL entry no one can satisfy by mistake. */
  @Override
  public boolean isValid(String id) {
    int colon = id.indexOf(':');
    if (colon < 0) {
      return false;
    }
    String kind = id.substring(0, colon);
    String value = id.substring(colon + 1);
    try {
      switch (kind) {
        case FederationAcls.SITE, FederationAcls.CLAIM, FederationAcls.RESULT:
          Identity.parse(value);
          return true;
        case FederationAcls.MEMBER, FederationAcls.OPERATOR:
          return value.equals(FederationAcls.ANY) || Identity.isName(value);
        default:
          return false;
      }
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  /**
   * Whether a member may create the node {@code path} with {@code acl} among its own: a job in its
   * folder ({@code /coalition/FED/jobs/SITE/JOB}) or its live node ({@code /coalition/FED/sites/SITE/live})
   * with the lists of its own nodes, or a day of its market folder and the records in it
   * ({@code /coalition/FED/market/SITE/DAY} and {@code .../DAY/NAME}) with exactly
   * {@link FederationAcls#sealed}'s list, so that it can never change or delete them. Nowhere else
   * (under its ledger row, its allowances, its site record, its jobs), so a member's bulk has two
   * places, which the operator's quotas bound.
   */
  static boolean createsOwnNode(Identity who, String path, List<ACL> acl) {
    if (path == null) {
      return false;
    }
    String root = "/coalition/" + who.federation() + "/";
    if (below(path, root + "market/" + who.name() + "/", 2)) {
      return FederationAcls.same(acl, FederationAcls.sealed(who));
    }
    return (path.equals(root + "sites/" + who.name() + "/live") || below(path, root + "jobs/" + who.name() + "/", 1))
        && FederationAcls.isOwnNodeAcl(who, acl);
  }

  /** Whether {@code path} is 1 to {@code depth} non-empty segments below {@code folder} (which ends in '/'). */
  private static boolean below(String path, String folder, int depth) {
    if (!path.startsWith(folder) || path.length() == folder.length()) {
      return false;
    }
    String[] segments = path.substring(folder.length()).split("/", -1);
    if (segments.length > depth) {
      return false;
    }
    for (String segment : segments) {
      if (segment.isEmpty()) {
        return false;
      }
    }
    return true;
  }

  private static String lastSegment(String path) {
    return path == null ? "" : path.substring(path.lastIndexOf('/') + 1);
  }

}
