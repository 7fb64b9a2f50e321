package org.coalition.coordination.zookeeper;

import static org.coalition.coordination.zookeeper.HostileWrites.JUNK;
import static org.coalition.coordination.zookeeper.HostileWrites.assertNoAuth;
import static org.coalition.coordination.zookeeper.HostileWrites.join;
import static org.coalition.testbed.Eventually.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Arrays;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Quotas;
import org.apache.zookeeper.ZooDefs;
import org.coalition.coordination.Claim;
import org.coalition.coordination.CoordinationException;
import org.coalition.coordination.JobRef;
import org.coalition.coordination.JobSpec;
import org.coalition.coordination.RunResult;
import org.coalition.testbed.zookeeper.Ensemble;
import org.coalition.zookeeper.policy.FederationAcls;
import org.coalition.zookeeper.policy.Identity;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A member's bulk is bounded by the servers (issue #49, attack 9: a tester's server died of
 * OutOfMemoryError at about 77 MB of one member's nodes). Past the quota the operator set on its
 * jobs folder ZooKeeper refuses its creates, and the other members publish, claim and finish on;
 * a job of the full home is passed over by executors, not an error; no member can change a quota,
 * reset its count or write ZooKeeper's own tree, which is open to anyone by default; an honest home
 * publishes only what leaves its jobs room to be claimed. Each fails on the code before (no quota
 * set, {@code /zookeeper} open, no room kept).
 */
class ZkQuotaIT {
  private static Ensemble server;

  @BeforeAll
  static void start() throws Exception {
    server = SharedServer.get();
  }

  @Test
  void aMembersBulkStopsAtItsQuotaAndTheOthersWorkOn() throws Exception {
    MemberQuota quota = new MemberQuota(40, 512 * 1024);
    ZkTestFederation fed = new ZkTestFederation(server, Clock.systemUTC(), List.of("a", "b", "mallory"), quota);
    ZkPaths paths = new ZkPaths(fed.name);
    Identity mallory = new Identity(fed.name, "mallory");
    try (ZkCoordination a = fed.connect("a");
        ZkCoordination b = fed.connect("b");
        ZkCoordination malloryApi = fed.connect("mallory");
        CuratorFramework raw = ZkFederation.client(fed.connectString, fed.tls("mallory"), ZkFederation.Options.DEFAULT)) {
      join(a);
      join(b);
      join(malloryApi);
      malloryApi.publish(List.of(JobSpec.builder("m1", "mallory").cores(1).walltimeSeconds(60).build()));
      // nodes as large as a record may be, in the one place a member may make them, until the servers refuse
      byte[] bulk = new byte[60_000];
      Arrays.fill(bulk, (byte) 'x');
      int big = fill(raw, paths.jobsOf("mallory") + "/big-", bulk, mallory);
      assertEquals(quota.bytes() / bulk.length, big, "the servers took as many 60 KB nodes as the byte quota holds, and no more");
      int small = fill(raw, paths.jobsOf("mallory") + "/small-", JUNK, mallory);
      assertEquals(quota.nodes() - 2 - big, small, "then as many small ones as the node quota holds (the folder and m1 count), and no more");

      // a job of a home whose folder is full cannot be claimed: passed over, not an error of the executor's
      waitFor("a sees mallory's job", () -> a.queue().stream().anyMatch(j -> j.jobId().equals("m1")));
      assertTrue(a.claim(new JobRef("mallory", "m1")).isEmpty(), "no room for a claim under mallory's full folder");
      b.publish(List.of(JobSpec.builder("j1", "b").cores(1).walltimeSeconds(60).build()));
      waitFor("a sees b's job", () -> a.queue().stream().anyMatch(j -> j.jobId().equals("j1")));
      Claim claim = a.claim(new JobRef("b", "j1")).orElseThrow();
      a.start(claim, 1);
      a.finish(claim, RunResult.builder(1, 2).build());
      waitFor("b gets a's result", () -> b.results().size() == 1);
    }
  }

  /** Creates nodes {@code prefix}0, 1, ... with {@code data} until the servers refuse one for the quota; how many it made. */
  private static int fill(CuratorFramework raw, String prefix, byte[] data, Identity owner) throws Exception {
    for (int i = 0; i < 10_000; i++) {
      try {
        raw.create().withACL(FederationAcls.job(owner)).forPath(prefix + i, data);
      } catch (KeeperException.QuotaExceededException e) {
        return i;
      }
    }
    throw new AssertionError("10,000 nodes made under " + prefix + " and the servers refused none");
  }

  @Test
  void noMemberChangesAQuotaOrWritesZooKeepersOwnTree() throws Exception {
    ZkTestFederation fed = new ZkTestFederation(server, Clock.systemUTC(), List.of("a", "mallory"));
    ZkPaths paths = new ZkPaths(fed.name);
    byte[] unbounded = "count=-1,bytes=-1,countHardLimit=-1,byteHardLimit=-1".getBytes(StandardCharsets.UTF_8);
    byte[] tiny = "count=-1,bytes=-1,countHardLimit=2,byteHardLimit=10".getBytes(StandardCharsets.UTF_8);
    try (CuratorFramework raw = ZkFederation.client(fed.connectString, fed.tls("mallory"), ZkFederation.Options.DEFAULT)) {
      String own = paths.jobsOf("mallory");
      assertNoAuth("lift its own quota", () -> raw.setData().forPath(Quotas.limitPath(own), unbounded));
      assertNoAuth("delete its own quota", () -> raw.delete().deletingChildrenIfNeeded().forPath(Quotas.quotaPath(own)));
      assertNoAuth("reset its count", () -> raw.setData().forPath(Quotas.statPath(own), "count=1,bytes=0".getBytes(StandardCharsets.UTF_8)));
      assertNoAuth("shrink another member's quota", () -> raw.setData().forPath(Quotas.limitPath(paths.jobsOf("a")), tiny));
      assertNoAuth("set a quota of its own on the federation's jobs",
          () -> raw.create().forPath(Quotas.limitPath(paths.jobs()), tiny));
      assertNoAuth("set a quota on the ensemble's root", () -> raw.create().forPath(Quotas.quotaZookeeper + "/" + Quotas.limitNode, tiny));
      assertNoAuth("put its bulk in ZooKeeper's own tree", () -> raw.create().forPath(Quotas.procZookeeper + "/bulk", JUNK));
      assertNoAuth("open the quota tree again", () -> raw.setACL().withACL(ZooDefs.Ids.OPEN_ACL_UNSAFE).forPath(Quotas.quotaZookeeper));
      assertNoAuth("open ZooKeeper's tree again", () -> raw.setACL().withACL(ZooDefs.Ids.OPEN_ACL_UNSAFE).forPath(Quotas.procZookeeper));
    }
  }

  @Test
  void aHomePublishesOnlyWhatLeavesItsJobsRoomToBeClaimed() throws Exception {
    // the folder and three jobs with their claims and results
    ZkTestFederation fed = new ZkTestFederation(server, Clock.systemUTC(), List.of("a", "b"), new MemberQuota(10, MemberQuota.MIN_BYTES * 4));
    try (ZkCoordination a = fed.connect("a");
        ZkCoordination b = fed.connect("b")) {
      join(a);
      join(b);
      b.publish(List.of(JobSpec.builder("j1", "b").cores(1).walltimeSeconds(60).build(), JobSpec.builder("j2", "b").cores(1).walltimeSeconds(60)
          .build()));
      b.publish(List.of(JobSpec.builder("j3", "b").cores(1).walltimeSeconds(60).build()));
      CoordinationException full = assertThrows(CoordinationException.class, () -> b.publish(List.of(JobSpec.builder("j4", "b").cores(1)
          .walltimeSeconds(60).build())));
      assertEquals(CoordinationException.Kind.INVALID, full.kind());
      assertTrue(full.getMessage().contains("quota (10 nodes"), full.getMessage());
      waitFor("a sees b's three jobs", () -> a.queue().size() == 3);
      for (String job : List.of("j1", "j2", "j3")) {
        Claim claim = a.claim(new JobRef("b", job)).orElseThrow(() -> new AssertionError("a could not claim " + job));
        a.start(claim, 1);
        a.finish(claim, RunResult.builder(1, 2).build());
      }
      waitFor("b gets the three results", () -> b.results().size() == 3);
      assertEquals(3, b.acknowledge(b.results()));
      b.publish(List.of(JobSpec.builder("j4", "b").cores(1).walltimeSeconds(60).build()));
    }
  }
}
