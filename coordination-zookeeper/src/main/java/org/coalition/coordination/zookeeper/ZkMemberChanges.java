package org.coalition.coordination.zookeeper;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Stat;
import org.coalition.coordination.CoordinationException;
import org.coalition.coordination.CoordinationException.Kind;
import org.coalition.coordination.zookeeper.ZkRecords.FederationRecord;
import org.coalition.zookeeper.policy.FederationAcls;
import org.coalition.zookeeper.policy.Identity;
import org.coalition.zookeeper.policy.Revocations;

/**
 * What the operator changes in a federation's membership after {@link ZkFederation#bootstrap}:
 * which certificates of a member the servers take ({@link Revocations}: a rotated key's
 * predecessors, refused from the end of an overlap) and the removal of a member (every
 * certificate of it refused at once, its nodes and its jobs gone from the federation, its name
 * off the member list). Every call connects as the operator.
 */
public final class ZkMemberChanges {
  private ZkMemberChanges() {}

  /**
   * Refuses {@code site}'s certificates issued before {@code cutoffMillis}, from {@code fromMillis}
   * on (0: at once). The site must be a member.
   */
  public static void revokeBefore(String connectString, ZkTls operator, String site, long cutoffMillis, long fromMillis) {
    Identity self = ZkFederation.operatorOf(operator, "revokes a member's certificates");
    try (CuratorFramework admin = ZkFederation.client(connectString, operator, ZkFederation.Options.DEFAULT)) {
      FederationRecord record = ZkFederation.record(admin, self.federation(), connectString);
      if (!record.members().containsKey(site)) {
        throw new CoordinationException(Kind.INVALID, "'" + site + "' is not a member of federation " + self.federation()
            + " (members: " + String.join(", ", new TreeMap<>(record.members()).keySet()) + ")");
      }
      write(admin, new Identity(self.federation(), site), Revocations.encode(cutoffMillis, fromMillis));
    } catch (CoordinationException e) {
      throw e;
    } catch (Exception e) {
      throw ZkSite.translate("revoking certificates of " + site + " in federation " + self.federation() + " at " + connectString, e);
    }
  }

  /**
   * Removes {@code site}: first every certificate of it refused (so it writes nothing while the
   * rest goes), then its nodes deleted, its published jobs with their claims and results among
   * them, then its name taken off the member list. Removing a site that is not a member is an
   * error. The site's daemon, if it still runs, is refused on every request from then on.
   */
  public static void remove(String connectString, ZkTls operator, String site) {
    Identity self = ZkFederation.operatorOf(operator, "removes a member");
    ZkPaths paths = new ZkPaths(self.federation());
    try (CuratorFramework admin = ZkFederation.client(connectString, operator, ZkFederation.Options.DEFAULT)) {
      FederationRecord record = ZkFederation.record(admin, self.federation(), connectString);
      if (!record.members().containsKey(site)) {
        throw new CoordinationException(Kind.INVALID, "'" + site + "' is not a member of federation " + self.federation());
      }
      write(admin, new Identity(self.federation(), site), Revocations.encode(Revocations.ALWAYS, 0));
      for (String path : List.of(paths.site(site), paths.jobsOf(site), paths.ledger(site), paths.allowances(site), paths.marketOf(site))) {
        try {
          admin.delete().deletingChildrenIfNeeded().forPath(path);
        } catch (KeeperException.NoNodeException e) {
          // not there (a member that never ran, or a removal that was interrupted and is run again)
        }
      }
      ZkQuotas.remove(admin, paths, site);
      Stat stat = new Stat();
      FederationRecord current = ZkRecords.read(paths.root, admin.getData().storingStatIn(stat).forPath(paths.root), FederationRecord.class);
      Map<String, String> members = new TreeMap<>(current.members());
      members.remove(site);
      admin.setData().withVersion(stat.getVersion()).forPath(paths.root, ZkRecords.write(new FederationRecord(current.epochMillis(), members)));
    } catch (CoordinationException e) {
      throw e;
    } catch (Exception e) {
      throw ZkSite.translate("removing " + site + " from federation " + self.federation() + " at " + connectString, e);
    }
  }

  /** The site's cutoff node, made (with its branch) or replaced; the operator's, read by members. */
  private static void write(CuratorFramework admin, Identity site, byte[] cutoff) throws Exception {
    List<ACL> operatorOnly = FederationAcls.operatorOnly(site.federation());
    String node = Revocations.path(site);
    ZkFederation.ensure(admin, node.substring(0, node.lastIndexOf('/')), new byte[0], operatorOnly);
    try {
      admin.create().withACL(operatorOnly).forPath(node, cutoff);
    } catch (KeeperException.NodeExistsException e) {
      admin.setData().forPath(node, cutoff);
    }
  }
}
