package org.coalition.coordination.zookeeper;

import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.ACL;
import org.coalition.coordination.CoordinationException;
import org.coalition.coordination.CoordinationException.Kind;
import org.coalition.coordination.zookeeper.ZkRecords.FederationRecord;
import org.coalition.zookeeper.policy.FederationAcls;
import org.coalition.zookeeper.policy.Identity;

/**
 * One site's footing in a federation's ZooKeeper tree, shared by the parts of
 * {@link ZkCoordination}: the Curator client, the tree's paths, who the site is and who the
 * members are, the ACLs it writes with, the federation's clock, and the ways to call ZooKeeper
 * (a fenced call on one session's raw handle, errors translated to {@link CoordinationException}).
 */
final class ZkSite {
  final CuratorFramework client;
  final ZkPaths paths;
  final String site;
  final Clock clock;
  /** The handle's settings, the claim lease and the cap on a member's claims among them. */
  final ZkFederation.Options options;
  final long epochMillis;
  /** This site's identity (federation and name), as its certificate names it. */
  final Identity self;
  /** A job node: everything for its home, exactly a claim for the other members, READ for the members. */
  final List<ACL> jobAcl;
  /** A node only this site may change. */
  final List<ACL> ownAcl;
  /** Peers' records this daemon refused, counted and logged once per node and reason. */
  final PeerRecords peerRecords = new PeerRecords();
  /** Who made each claim on this site's jobs, from the claim's ACL (the servers checked it), not its record. */
  final ClaimAuthors claimAuthors = new ClaimAuthors(this);

  /** Reads the federation's record; refuses a site that is not a member. */
  ZkSite(CuratorFramework client, ZkPaths paths, Identity self, Clock clock, ZkFederation.Options options) {
    this.client = client;
    this.options = options;
    this.paths = paths;
    this.self = self;
    this.site = self.name();
    this.clock = clock;
    FederationRecord fed;
    try {
      // a server that lags behind the leader may not have the federation the operator just created: catch up first (the
      // read below is queued after the sync on this session)
      client.sync().forPath(paths.root);
      if (client.checkExists().forPath(paths.root) == null) {
        throw new CoordinationException(Kind.INVALID, "no federation at " + paths.root
            + " (or this identity may not read it); the operator creates it with coalition federation create");
      }
      fed = ZkRecords.read(paths.root, client.getData().forPath(paths.root), FederationRecord.class);
    } catch (Exception e) {
      throw translate("reading federation " + paths.root, e);
    }
    if (!self.toString().equals(fed.members().get(site))) {
      throw new CoordinationException(Kind.FORBIDDEN, "site " + site + " is not a member of " + paths.root
          + "; the operator adds it with coalition federation add " + site);
    }
    this.epochMillis = fed.epochMillis();
    this.jobAcl = FederationAcls.job(self);
    this.ownAcl = FederationAcls.own(self);
  }

  /**
   * Whether the servers still take this site: a read of the federation's record (which every
   * member may read) refused for this identity, or a record that no longer lists the site, says
   * the operator removed it or revoked its key. Empty when taken, or when the servers cannot be
   * asked now (a lost connection is not a refusal).
   */
  Optional<String> refusal() {
    try {
      FederationRecord fed = ZkRecords.read(paths.root, client.getData().forPath(paths.root), FederationRecord.class);
      return self.toString().equals(fed.members().get(site)) ? Optional.empty()
          : Optional.of("site " + site + " is no longer a member of federation " + self.federation() + " (its operator removed it)");
    } catch (KeeperException.NoAuthException | KeeperException.AuthFailedException e) {
      return Optional.of("the servers of federation " + self.federation() + " refuse this site's key (its operator removed " + site
          + " or revoked the key: coalition federation rotate gives a new one)");
    } catch (Exception e) {
      return Optional.empty();
    }
  }

  /** The identity of {@code site}, a member of this federation. */
  Identity member(String site) {
    return new Identity(self.federation(), site);
  }

  /** Seconds since the federation's epoch: every site's clock for release, start and end times. */
  double now() {
    return (clock.millis() - epochMillis) / 1000.0;
  }

  /** A ZooKeeper server's time stamp (a node's ctime or mtime, epoch millis) in federation seconds. */
  double federationSeconds(long serverMillis) {
    return (serverMillis - epochMillis) / 1000.0;
  }

  void requireOwn(String owner) {
    CoordinationException.requireOwn(site, owner);
  }

  /** The current session's raw handle. */
  ZooKeeper handle() {
    try {
      return client.getZookeeperClient().getZooKeeper();
    } catch (Exception e) {
      throw translate("getting a ZooKeeper session", e);
    }
  }

  /**
   * The current handle once it has a session: a handle still connecting has session id 0 (its
   * first connection not made yet), and a record that names its writer's session (a claim) must
   * not be written with that. UNAVAILABLE until then (after an expiry, while the link is down).
   */
  ZooKeeper sessionHandle() {
    ZooKeeper handle = handle();
    if (handle.getSessionId() == 0 || !handle.getState().isAlive()) {
      throw new CoordinationException(Kind.UNAVAILABLE, "site " + site + " has no ZooKeeper session now (connecting)");
    }
    return handle;
  }

  /**
   * Every child of {@code parent} read as {@code type}, by name; unreadable ones, and ones whose
   * record names another than its node ({@code owner}), skipped with a warning.
   */
  <T> Map<String, T> readAll(String parent, Class<T> type, Function<T, String> owner) {
    Map<String, T> out = new HashMap<>();
    try {
      for (String name : client.getChildren().forPath(parent)) {
        String path = parent + "/" + name;
        try {
          T record = ZkRecords.read(path, client.getData().forPath(path), type);
          String named = owner.apply(record);
          if (!named.equals(name)) {
            peerRecords.refuse(type.getSimpleName(), path, "it names " + named + ", not " + name + "; ignored");
            continue;
          }
          out.put(name, record);
          peerRecords.accepted(path);
        } catch (CoordinationException e) {
          peerRecords.refuse(type.getSimpleName(), path, e.getMessage());
        }
      }
    } catch (Exception e) {
      throw translate("reading " + parent, e);
    }
    return out;
  }

  /** One operation on the raw handle of a session: retried across connection loss, never across sessions. */
  static <T> T fenced(ZooKeeper zk, ZkCall<T> call) throws KeeperException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (true) {
      try {
        return call.run();
      } catch (KeeperException.ConnectionLossException | KeeperException.OperationTimeoutException e) {
        if (!zk.getState().isAlive() || System.nanoTime() > deadline) {
          throw new CoordinationException(Kind.UNAVAILABLE, "session 0x" + Long.toHexString(zk.getSessionId()) + " lost: " + e.getMessage(), e);
        }
        sleep(50);
      } catch (KeeperException.SessionExpiredException | KeeperException.SessionMovedException e) {
        throw new CoordinationException(Kind.UNAVAILABLE, "session 0x" + Long.toHexString(zk.getSessionId()) + " ended: " + e.getMessage(), e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new CoordinationException(Kind.UNAVAILABLE, "interrupted", e);
      }
    }
  }

  /** A call on a raw ZooKeeper handle. */
  @FunctionalInterface
  interface ZkCall<T> {
    T run() throws KeeperException, InterruptedException;
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CoordinationException(Kind.UNAVAILABLE, "interrupted", e);
    }
  }

  /** {@code e} as a {@link CoordinationException} whose kind says whether to retry. */
  static CoordinationException translate(String what, Exception e) {
    if (e instanceof CoordinationException ce) {
      return ce;
    }
    if (e instanceof InterruptedException) {
      Thread.currentThread().interrupt();
      return new CoordinationException(Kind.UNAVAILABLE, what + ": interrupted", e);
    }
    if (e instanceof KeeperException ke) {
      Kind kind = switch (ke.code()) {
        case CONNECTIONLOSS, SESSIONEXPIRED, SESSIONMOVED, OPERATIONTIMEOUT -> Kind.UNAVAILABLE;
        case NOAUTH, AUTHFAILED -> Kind.FORBIDDEN;
        case QUOTAEXCEEDED -> Kind.INVALID;
        default -> Kind.INTERNAL;
      };
      if (ke.code() == KeeperException.Code.QUOTAEXCEEDED) {
        return new CoordinationException(kind, what + ": past the quota the federation's operator set on the home's jobs (the servers refused"
            + " it; coalition federation create --site SITE --member-nodes N --member-mib M sets it)", e);
      }
      return new CoordinationException(kind, what + ": " + ke.getMessage(), e);
    }
    return new CoordinationException(Kind.INTERNAL, what + ": " + e, e);
  }
}
