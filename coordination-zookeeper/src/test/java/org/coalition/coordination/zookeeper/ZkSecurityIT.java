package org.coalition.coordination.zookeeper;

import static org.coalition.coordination.zookeeper.HostileWrites.JUNK;
import static org.coalition.coordination.zookeeper.HostileWrites.assertNoAuth;
import static org.coalition.coordination.zookeeper.HostileWrites.join;
import static org.coalition.testbed.Eventually.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs;
import org.coalition.coordination.Claim;
import org.coalition.coordination.CoordinationException;
import org.coalition.coordination.JobRef;
import org.coalition.coordination.JobSpec;
import org.coalition.coordination.RunResult;
import org.coalition.coordination.SiteLedger;
import org.coalition.testbed.zookeeper.Ensemble;
import org.coalition.zookeeper.policy.FederationAcls;
import org.coalition.zookeeper.policy.Identity;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Sites do not trust each other's writes. Site b, bypassing Coalition's API with its own
 * authenticated ZooKeeper client, tries to rewrite site a's data, steal a's claim and forge a
 * result; ZooKeeper's ACLs refuse every attempt. Garbage a peer writes into its own nodes is
 * ignored with a warning, and nothing else is lost.
 */
class ZkSecurityIT {
  private static Ensemble server;

  @BeforeAll
  static void start() throws Exception {
    server = Ensemble.start(1);
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  @Test
  void siteBCannotRewriteSiteAsDataOrStealItsClaim() throws Exception {
    ZkTestFederation fed = new ZkTestFederation(server, Clock.systemUTC(), List.of("a", "b", "c"));
    ZkPaths paths = new ZkPaths(fed.name);
    try (ZkCoordination a = fed.connect("a");
        ZkCoordination c = fed.connect("c");
        CuratorFramework b = ZkFederation.client(fed.connectString, fed.tls("b"), ZkFederation.Options.DEFAULT)) {
      join(a);
      join(c);
      waitFor("a, the first to join, leads; c follows", () -> a.isLeader() && !c.isLeader());
      c.publish(new JobSpec("j1", "c", 1, 0, 60, 0, ""));
      a.publish(new JobSpec("own", "a", 1, 0, 60, 0, ""));
      waitFor("a sees c's job", () -> !a.queue().isEmpty());
      Claim claim = a.claim(new JobRef("c", "j1")).orElseThrow();
      JobRef ref = claim.ref();

      assertNoAuth("rewrite a's ledger", () -> b.setData().forPath(paths.ledger("a"), JUNK));
      assertNoAuth("rewrite a's site record", () -> b.setData().forPath(paths.site("a"), JUNK));
      assertNoAuth("pose as a live", () -> b.setData().forPath(paths.live("a"), JUNK));
      assertNoAuth("publish allowances as a", () -> b.setData().forPath(paths.allowances("a"), JUNK));
      assertNoAuth("publish a job as a", () -> b.create().forPath(paths.jobsOf("a") + "/fake", JUNK));
      assertNoAuth("delete a's job", () -> b.delete().forPath(paths.job(new JobRef("a", "own"))));
      assertNoAuth("rewrite a's job", () -> b.setData().forPath(paths.job(new JobRef("a", "own")), JUNK));
      assertNoAuth("rewrite a's claim", () -> b.setData().forPath(paths.claim(ref), JUNK));
      assertNoAuth("delete a's claim", () -> b.delete().forPath(paths.claim(ref)));
      assertNoAuth("forge a result under a's claim", () -> b.create().forPath(paths.result(ref), JUNK));
      assertNoAuth("add a ledger row for a site of its own making", () -> b.create().forPath(paths.ledgers() + "/sybil", JUNK));
      assertNoAuth("change the member list", () -> b.setData().forPath(paths.root, JUNK));
      assertNoAuth("fill the ensemble with top-level nodes", () -> b.create().forPath("/b-was-here", JUNK));
      assertNoAuth("open the ensemble's root again", () -> b.setACL().withACL(ZooDefs.Ids.OPEN_ACL_UNSAFE).forPath("/"));
      assertNoAuth("plant a folder that names a leader", () -> b.create().forPath(paths.root + "/leader", JUNK));
      assertNoAuth("take a's place in the leader order", () -> b.delete().forPath(paths.live("a")));

      try (CuratorFramework anonymous = CuratorFrameworkFactory.newClient(server.plainConnectString(), new RetryOneTime(100))) {
        anonymous.start();
        anonymous.blockUntilConnected();
        assertNoAuth("claim without an identity", () -> anonymous.create().withMode(CreateMode.PERSISTENT)
            .forPath(paths.jobsOf("a") + "/own/claim", JUNK));
        assertNoAuth("read a job without an identity", () -> anonymous.getData().forPath(paths.job(new JobRef("a", "own"))));
        assertNoAuth("read the member list without an identity", () -> anonymous.getData().forPath(paths.root));
      }

      a.start(claim, 1);
      a.finish(claim, new RunResult(1, 2, 0, ""));
      waitFor("c gets a's result", () -> c.results().size() == 1);
      assertEquals("a", c.results().get(0).executor(), "the claim and the result stayed a's");
    }
  }

  @Test
  void garbageInAPeersNodesIsIgnoredAndLosesNothing() throws Exception {
    ZkTestFederation fed = new ZkTestFederation(server, Clock.systemUTC(), List.of("a", "b"));
    ZkPaths paths = new ZkPaths(fed.name);
    try (ZkCoordination a = fed.connect("a");
        CuratorFramework b = ZkFederation.client(fed.connectString, fed.tls("b"), ZkFederation.Options.DEFAULT);
        ZkCoordination bApi = fed.connect("b")) {
      join(a);
      join(bApi);
      bApi.publish(new JobSpec("good", "b", 1, 0, 60, 0, ""));
      // b writes nonsense into nodes it owns: a job that is not JSON, one with a negative core count, one too big
      b.create().forPath(paths.jobsOf("b") + "/notjson", "<xml/>".getBytes(StandardCharsets.UTF_8));
      b.create().forPath(paths.jobsOf("b") + "/negative",
          "{\"jobId\":\"negative\",\"home\":\"b\",\"cores\":-4,\"memoryMb\":0,\"walltimeSeconds\":60,\"release\":0,\"payload\":\"\"}"
              .getBytes(StandardCharsets.UTF_8));
      b.create().forPath(paths.jobsOf("b") + "/huge", new byte[200_000]);
      b.setData().forPath(paths.ledger("b"), "[1,2,3]".getBytes(StandardCharsets.UTF_8));
      // A job published after the garbage: the cache applies events in the order ZooKeeper made them, so once a sees
      // this one, it has read (and judged) every malformed node before it.
      bApi.publish(new JobSpec("after", "b", 1, 0, 60, 1, ""));
      waitFor("a sees the job b published after the garbage", () -> a.queue().stream().anyMatch(j -> j.jobId().equals("after")));
      assertEquals(List.of("good", "after"), a.queue().stream().map(JobSpec::jobId).toList(), "the malformed jobs are skipped");
      assertEquals(SiteLedger.empty("b"), a.ledgers().get("b"), "b's broken row is not believed: what a saw of it (nothing yet) stands");
      assertEquals(SiteLedger.empty("a"), a.ledgers().get("a"), "a's ledger is intact");
      CoordinationException e = assertThrows(CoordinationException.class,
          () -> ZkRecords.read("/x", "{\"jobId\":\"j\",\"home\":\"b\",\"cores\":0,\"memoryMb\":0,\"walltimeSeconds\":1,\"release\":0,\"payload\":\"\"}"
              .getBytes(StandardCharsets.UTF_8), JobSpec.class));
      assertTrue(e.getMessage().startsWith("/x: not a valid JobSpec: ") && e.getMessage().contains("cores must be in [1, "), e.getMessage());
    }
  }

  @Test
  void anUnreadableResultIsRejectedAndItsJobQueuedAgainNotSkippedForEver() throws Exception {
    try (Sites sites = Sites.withJobOfA()) {
      sites.bApi().claim(Sites.REF).orElseThrow();
      // c must have seen the claim: else its stale queue would pass the wait below before a has read any result
      waitFor("c sees b's claim", () -> sites.c().queue().stream().noneMatch(j -> j.ref().equals(Sites.REF)));
      // b writes its result node itself, with a body that is no result at all
      sites.b().create().withACL(FederationAcls.result(new Identity(sites.fed().name, "b"))).forPath(sites.paths().result(Sites.REF),
          "{\"executor\":\"b\",\"token\":1,\"run\":{\"start\":5,\"end\":1e400}}"
          .getBytes(StandardCharsets.UTF_8));
      waitFor("a refuses the result and c sees the job queued again", () -> {
        sites.a().results();
        return sites.c().queue().stream().anyMatch(j -> j.ref().equals(Sites.REF));
      });
      assertTrue(sites.a().results().isEmpty(), "nothing to fold");
      // c's cache may show the claim gone a moment before the job's new version (a claim checks the version), as a
      // daemon's next tick would, c tries again until it holds the job: it is queued again, not skipped for ever
      waitFor("queued again: c claims it", () -> {
        sites.a().results(); // as a's daemon reads its results every tick
        return sites.c().claim(Sites.REF).isPresent();
      });
    }
  }

  @Test
  void theOldLeaderLatchFolderEveryMemberCouldWriteIsDeletedByTheNextBootstrap() throws Exception {
    ZkTestFederation fed = new ZkTestFederation(server, Clock.systemUTC(), List.of("a"));
    ZkPaths paths = new ZkPaths(fed.name);
    String latch = paths.root + "/leader";
    try (CuratorFramework operator = ZkFederation.client(fed.connectString, fed.operator(), ZkFederation.Options.DEFAULT)) {
      // as a federation made before leadership followed the live nodes had it: open to every member
      operator.create().creatingParentsIfNeeded().withACL(ZooDefs.Ids.OPEN_ACL_UNSAFE).forPath(latch + "/_c_planted-latch-0000000001", JUNK);
      ZkFederation.bootstrap(fed.connectString, fed.operator(), List.of("a"), Clock.systemUTC());
      assertNull(operator.checkExists().forPath(latch), "the latch folder and what was planted in it are gone");
    }
  }

  /**
   * A claim this site's session made but whose answer it never got (a multi applied just before
   * its connection broke, then retried on the same session and refused as existing) is taken by
   * this site's next attempt, not left to lapse while the job waits; it is handed out once only.
   */
  @Test
  void aClaimWhoseAnswerWasLostIsTakenByTheNextAttemptOnce() throws Exception {
    try (Sites sites = Sites.withJobOfA()) {
      // what b's own create left when its answer was lost: b's claim, under b's session
      sites.b().create().withACL(FederationAcls.claim(new Identity(sites.fed().name, "b"), new Identity(sites.fed().name, "a")))
          .forPath(sites.paths().claim(Sites.REF), ZkRecords.write(ZkRecords.ClaimRecord.fresh("b", sites.bApi().session().id())));
      long token = sites.b().checkExists().forPath(sites.paths().claim(Sites.REF)).getCzxid();
      assertTrue(sites.c().claim(Sites.REF).isEmpty(), "another site's claim stays another's");
      Claim taken = sites.bApi().claim(Sites.REF).orElseThrow(() -> new AssertionError("b's next attempt takes its orphan claim"));
      assertEquals(token, taken.token());
      assertTrue(sites.bApi().claim(Sites.REF).isEmpty(), "handed out once: a second pilot of b does not get it too");
      sites.bApi().start(taken, 1);
      sites.bApi().finish(taken, new RunResult(1, 2, 0, ""));
      waitFor("a gets b's result", () -> sites.a().results().size() == 1);
      assertTrue(sites.bApi().claim(Sites.REF).isEmpty(), "a job run to its end is not taken again");
    }
  }

  /**
   * Sites a, b and c joined, a's job {@link #REF} published and seen by b; b also as a raw
   * ZooKeeper client with its own identity ({@link #b}), which writes what b's daemon would not.
   */
  private record Sites(ZkTestFederation fed, ZkPaths paths, ZkCoordination a, ZkCoordination bApi, ZkCoordination c, CuratorFramework b)
      implements AutoCloseable {
    static final JobRef REF = new JobRef("a", "j1");

    static Sites withJobOfA() throws Exception {
      ZkTestFederation fed = new ZkTestFederation(server, Clock.systemUTC(), List.of("a", "b", "c"));
      Sites s = new Sites(fed, new ZkPaths(fed.name), fed.connect("a"), fed.connect("b"), fed.connect("c"),
          ZkFederation.client(fed.connectString, fed.tls("b"), ZkFederation.Options.DEFAULT));
      join(s.a);
      join(s.bApi);
      join(s.c);
      s.a.publish(new JobSpec(REF.jobId(), "a", 1, 0, 60, 0, ""));
      waitFor("b sees a's job", () -> s.bApi.queue().stream().anyMatch(j -> j.ref().equals(REF)));
      return s;
    }

    @Override
    public void close() {
      b.close();
      c.close();
      bApi.close();
      a.close();
    }
  }
}
