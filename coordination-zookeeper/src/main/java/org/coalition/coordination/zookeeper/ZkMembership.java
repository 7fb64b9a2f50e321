package org.coalition.coordination.zookeeper;

import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.recipes.leader.LeaderLatch;
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
 * carrying its status (so it leaves with its session), and takes part in the leader latch; the
 * leader publishes the BILB allowances under its own node, and everyone reads them through the
 * latch's current leader, so no node is writable by every site.
 */
final class ZkMembership implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ZkMembership.class);

  private final ZkSite zk;
  private final LeaderLatch latch;
  private volatile PersistentNode liveNode;

  ZkMembership(ZkSite zk) {
    this.zk = zk;
    this.latch = new LeaderLatch(zk.client, zk.paths.leader(), zk.site);
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
        latch.start();
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
    try {
      node.setData(ZkRecords.write(status));
    } catch (Exception e) {
      throw ZkSite.translate("updating the status of " + zk.site, e);
    }
  }

  Map<String, SiteInfo> knownSites() {
    return zk.readAll(zk.paths.sites(), SiteInfo.class);
  }

  boolean isLeader() {
    return liveNode != null && latch.hasLeadership();
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
   * The allowances of the latch's current leader, read from its own node (only it can write
   * there). A record that is unreadable, or that names another leader, is ignored with a
   * warning: the caller keeps to {@link Allowances#NONE}, and a peer's garbage stops no one.
   */
  Allowances allowances() {
    String leader;
    try {
      leader = latch.getLeader().getId();
    } catch (Exception e) {
      throw ZkSite.translate("finding the leader", e);
    }
    if (leader.isEmpty()) {
      return Allowances.NONE;
    }
    try {
      String path = zk.paths.allowances(JobSpec.requireId("leader", leader));
      Allowances a = ZkRecords.read(path, zk.client.getData().forPath(path), Allowances.class);
      if (!a.leader().equals(leader) && !a.leader().isEmpty()) {
        LOG.warn("ignoring allowances at {}: they name leader {}", path, a.leader());
        return Allowances.NONE;
      }
      return a;
    } catch (CoordinationException | IllegalArgumentException e) {
      if (e instanceof CoordinationException c && c.kind() == Kind.UNAVAILABLE) {
        throw c;
      }
      LOG.warn("ignoring the allowances of leader {}: {}", leader, e.getMessage());
      return Allowances.NONE;
    } catch (Exception e) {
      throw ZkSite.translate("reading allowances", e);
    }
  }

  /** Leaves: the latch closes silently and the live node goes. */
  @Override
  public void close() {
    try {
      if (liveNode != null) {
        latch.close(LeaderLatch.CloseMode.SILENT);
        liveNode.close();
      }
    } catch (Exception e) {
      LOG.debug("closing {}: {}", zk.site, e.toString());
    }
  }
}
