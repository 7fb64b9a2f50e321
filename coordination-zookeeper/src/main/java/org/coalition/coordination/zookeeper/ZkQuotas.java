package org.coalition.coordination.zookeeper;

import java.util.List;
import java.util.Optional;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Quotas;
import org.apache.zookeeper.StatsTrack;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Stat;
import org.coalition.zookeeper.policy.FederationAcls;

/**
 * Each member's {@link MemberQuota} on its jobs folder, in ZooKeeper's own quota tree
 * ({@code /zookeeper/quota/PATH/zookeeper_limits} and {@code zookeeper_stats}); the servers enforce
 * the hard limits ({@code enforceQuota=true}, {@code ServerTls}) and refuse a create or a write past
 * them with QUOTAEXCEEDED. ZooKeeper's own command for this ({@code SetQuotaCommand.createQuota})
 * makes the quota nodes writable by anyone, which would let a member raise its limit, reset its
 * count or lower another's; so the operator writes them here with its own ACLs, and closes
 * {@code /zookeeper} and {@code /zookeeper/quota} (open to all by default) to members.
 */
final class ZkQuotas {
  private static final String SYSTEM = Quotas.procZookeeper;
  private static final String TREE = Quotas.quotaZookeeper;

  /**
   * What the servers hold a member's market folder to ({@code market/SITE}): 10,000 nodes and 8 MiB,
   * a week of days of 24 slots with dozens of block types bid and contracted, which the daemon
   * keeps (it deletes older days); a member that writes more is refused by the servers, not read.
   */
  static final MemberQuota MARKET = new MemberQuota(10_000, 8L << 20);

  private ZkQuotas() {}

  /** Sets {@code quota} on {@code site}'s jobs folder and {@link #MARKET} on its market folder. */
  static void set(CuratorFramework admin, ZkPaths paths, String federation, String site, MemberQuota quota) throws Exception {
    set(admin, federation, paths.jobsOf(site), quota);
    set(admin, federation, paths.marketOf(site), MARKET);
  }

  /**
   * Sets {@code quota} on {@code folder}, in the operator's session {@code admin}: made, or
   * changed where set before. {@link #closeToMembers} must have closed the system tree first.
   */
  private static void set(CuratorFramework admin, String federation, String folder, MemberQuota quota) throws Exception {
    // /zookeeper/quota/coalition is any federation's; the folders below it, down to the member's, this one's
    String path = TREE + "/coalition";
    ZkFederation.ensure(admin, path, new byte[0], FederationAcls.shared(federation));
    List<ACL> operatorOnly = FederationAcls.operatorOnly(federation);
    for (String segment : folder.substring("/coalition/".length()).split("/")) {
      path += "/" + segment;
      ZkFederation.ensure(admin, path, new byte[0], operatorOnly);
    }
    StatsTrack limits = new StatsTrack();
    limits.setCountHardLimit(quota.nodes());
    limits.setByteHardLimit(quota.bytes());
    String limitPath = Quotas.limitPath(folder);
    try {
      admin.create().withACL(operatorOnly).forPath(limitPath, limits.getStatsBytes());
    } catch (KeeperException.NodeExistsException e) {
      admin.setData().forPath(limitPath, limits.getStatsBytes());
    }
    // after the limits (and made again if a bootstrap stopped between the two): making the stats
    // node is what has the servers count the folder's nodes, which they then keep up to date
    ZkFederation.ensure(admin, Quotas.statPath(folder), new StatsTrack().getStatsBytes(), operatorOnly);
  }

  /** Deletes {@code site}'s quota (a member removed). */
  static void remove(CuratorFramework admin, ZkPaths paths, String site) throws Exception {
    for (String folder : List.of(paths.jobsOf(site), paths.marketOf(site))) {
      try {
        admin.delete().deletingChildrenIfNeeded().forPath(Quotas.quotaPath(folder));
      } catch (KeeperException.NoNodeException e) {
        // none was set (a federation made before quotas, or before the market)
      }
    }
  }

  /**
   * The quota on {@code site}'s jobs folder and what it holds now, as any member may read them; empty
   * when the operator set none (a federation made by an earlier version: its servers bound nothing).
   */
  static Optional<Usage> usage(CuratorFramework client, ZkPaths paths, String site) throws Exception {
    String folder = paths.jobsOf(site);
    try {
      StatsTrack limits = new StatsTrack(client.getData().forPath(Quotas.limitPath(folder)));
      StatsTrack stats = new StatsTrack(client.getData().forPath(Quotas.statPath(folder)));
      Stat jobs = client.checkExists().forPath(folder);
      if (limits.getCountHardLimit() < MemberQuota.MIN_NODES || limits.getByteHardLimit() < MemberQuota.MIN_BYTES || jobs == null) {
        return Optional.empty();
      }
      return Optional.of(new Usage(new MemberQuota(limits.getCountHardLimit(), limits.getByteHardLimit()), jobs.getNumChildren(),
          Math.max(0, stats.getBytes())));
    } catch (KeeperException.NoNodeException e) {
      return Optional.empty();
    }
  }

  /** A member's quota, its published jobs and the bytes its folder holds. */
  record Usage(MemberQuota quota, int published, long bytes) {}

  /**
   * Closes {@code /zookeeper} and {@code /zookeeper/quota}, which ZooKeeper makes writable by
   * anyone, to members as the ensemble's root is: operators create there, members read.
   */
  static void closeToMembers(CuratorFramework admin) throws Exception {
    ZkFederation.closeToMembers(admin, SYSTEM);
    ZkFederation.closeToMembers(admin, TREE);
  }
}
