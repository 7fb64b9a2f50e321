package org.coalition.coordination.zookeeper;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Stat;
import org.coalition.coordination.JobRef;
import org.coalition.zookeeper.policy.FederationAcls;
import org.coalition.zookeeper.policy.Identity;

/**
 * Who made a claim, as the servers checked it: the servers' policy lets a member create a claim
 * only with the ACL {@link FederationAcls#claim} prescribes for itself as claimer, and lets only
 * that claimer add the claim's result. So the claim's ACL names its claimer and its result's
 * author; the {@code executor} a claim or result record writes is the member's word, believed
 * only when it agrees. A claim's ACL never changes (no member has ADMIN on it), so each claim's
 * is read once and kept by its creation zxid until the claim is gone.
 */
final class ClaimAuthors {
  private final ZkSite zk;
  private final Map<Long, Optional<String>> byClaim = new ConcurrentHashMap<>();

  ClaimAuthors(ZkSite zk) {
    this.zk = zk;
  }

  /**
   * The member that made the claim on {@code ref} whose creation zxid is {@code czxid}; empty when
   * its ACL is not one a member's claim can have (made by the operator, or by hand).
   *
   * @throws KeeperException.NoNodeException when that claim is gone (another may have come since)
   */
  Optional<String> of(JobRef ref, long czxid) throws Exception {
    Optional<String> known = byClaim.get(czxid);
    if (known != null) {
      return known;
    }
    Stat stat = new Stat();
    String path = zk.paths.claim(ref);
    List<ACL> acl = zk.client.getACL().storingStatIn(stat).forPath(path);
    if (stat.getCzxid() != czxid) {
      throw new KeeperException.NoNodeException(path); // that claim is gone; this one is another
    }
    Optional<String> author = FederationAcls.claimer(acl, zk.member(ref.home())).map(Identity::name);
    byClaim.put(czxid, author);
    return author;
  }

  /** Forgets the claims not among {@code current} (their creation zxids): they are gone. */
  void retain(Set<Long> current) {
    byClaim.keySet().retainAll(current);
  }
}
