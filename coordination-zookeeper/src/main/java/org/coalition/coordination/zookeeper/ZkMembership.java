package org.coalition.coordination.zookeeper;

import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.curator.framework.recipes.nodes.PersistentNode;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.data.Stat;
import org.coalition.coordination.Allowances;
import org.coalition.coordination.CoordinationException;
import org.coalition.coordination.CoordinationException.Kind;
import org.coalition.coordination.JobSpec;
import org.coalition.coordination.SiteInfo;
import org.coalition.coordination.SiteStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Membership and leadership: a site announces itself with its info and an ephemeral live node
 * carrying its status (so it leaves with its session). The leader is the site whose live node is
 * the oldest ({@link ZkQueueView#leader()}): it publishes the BILB allowances under its own node,
 * and everyone reads them from there. Leadership needs no node that every member may write (a
 * latch folder would be one, and a member could plant or delete candidates in it), and the order
 * it follows is the servers' creation zxid, which no member chooses.
 */
final class ZkMembership implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ZkMembership.class);

  private final ZkSite zk;
  private final Supplier<Optional<String>> leader;
  private volatile PersistentNode liveNode;

  /** {@code leader} names the current leader as this site's cache sees it. */
  ZkMembership(ZkSite zk, Supplier<Optional<String>> leader) {
    this.zk = zk;
    this.leader = leader;
  }

  /** Whether this site has announced itself (its live node exists or is being kept). */
  boolean joined() {
    return liveNode != null;
  }

  void join(SiteInfo info, SiteStatus status) {
    zk.requireOwn(info.site());
    zk.requireOwn(status.site());
    try {
      zk.client.setData().forPath(zk.paths.site(zk.site), ZkRecords.write(info));
      Stat stat = zk.client.checkExists().forPath(zk.paths.live(zk.site));
      long session = zk.client.getZookeeperClient().getZooKeeper().getSessionId();
      if (stat != null && stat.getEphemeralOwner() != session) {
        // left by an earlier process of this site whose session has not expired yet
        zk.client.delete().guaranteed().forPath(zk.paths.live(zk.site));
      }
      if (liveNode == null) {
        PersistentNode node = new PersistentNode(zk.client, CreateMode.EPHEMERAL, false, zk.paths.live(zk.site), ZkRecords.write(status));
        node.start();
        liveNode = node;
        if (!node.waitForInitialCreate(30, TimeUnit.SECONDS)) {
          throw new CoordinationException(Kind.UNAVAILABLE, "could not announce site " + zk.site + " within 30 s");
        }
      } else {
        liveNode.setData(ZkRecords.write(status));
      }
    } catch (Exception e) {
      throw ZkSite.translate("site " + zk.site + " joining", e);
    }
  }

  void updateStatus(SiteStatus status) {
    zk.requireOwn(status.site());
    PersistentNode node = liveNode;
    if (node == null) {
      throw new CoordinationException(Kind.INVALID, "site " + zk.site + " must join before updating its status");
    }
    byte[] record = ZkRecords.write(status);
    if (Arrays.equals(record, node.getData())) {
      return; // unchanged: a write would wake every member's watch for nothing (the daemon asks every round)
    }
    try {
      node.setData(record);
    } catch (Exception e) {
      throw ZkSite.translate("updating the status of " + zk.site, e);
    }
  }

  /** Each site's record, as its own node says; a record naming another site than its node's is refused. */
  Map<String, SiteInfo> knownSites() {
    return zk.readAll(zk.paths.sites(), SiteInfo.class, SiteInfo::site);
  }

  boolean isLeader() {
    return liveNode != null && leader.get().filter(zk.site::equals).isPresent();
  }

  void publishAllowances(Allowances allowances) {
    zk.requireOwn(allowances.leader());
    if (!isLeader()) {
      throw new CoordinationException(Kind.FORBIDDEN, "site " + zk.site + " is not the leader; only the leader publishes allowances");
    }
    try {
      zk.client.setData().forPath(zk.paths.allowances(zk.site), ZkRecords.write(allowances));
    } catch (Exception e) {
      throw ZkSite.translate("publishing allowances", e);
    }
  }

  /**
   * The allowances of the current leader, read from its own node (only it can write
   * there). A record that is unreadable, or that names another leader, is ignored with a
   * warning: the caller keeps to {@link Allowances#NONE}, and a peer's garbage stops no one.
   */
  Allowances allowances() {
    Optional<String> current = leader.get();
    if (current.isEmpty()) {
      return Allowances.NONE;
    }
    String leader = current.get();
    try {
      String path = zk.paths.allowances(JobSpec.requireId("leader", leader));
      Allowances a = ZkRecords.read(path, zk.client.getData().forPath(path), Allowances.class);
      if (!a.leader().equals(leader) && !a.leader().isEmpty()) {
        zk.peerRecords.refuse("Allowances", path, "they name leader " + a.leader() + ", not " + leader + "; ignored");
        return Allowances.NONE;
      }
      zk.peerRecords.accepted(path);
      return a;
    } catch (CoordinationException | IllegalArgumentException e) {
      if (e instanceof CoordinationException c && c.kind() == Kind.UNAVAILABLE) {
        throw c;
      }
      zk.peerRecords.refuse("Allowances", zk.paths.allowances(leader), e.getMessage() + "; ignored");
      return Allowances.NONE;
    } catch (Exception e) {
      throw ZkSite.translate("reading allowances", e);
    }
  }

  /** Leaves: the live node goes, and with it any leadership. */
  @Override
  public void close() {
    try {
      if (liveNode != null) {
        liveNode.close();
      }
    } catch (Exception e) {
      LOG.debug("closing {}: {}", zk.site, e.toString());
    }
  }
}
