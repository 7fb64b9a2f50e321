package org.coalition.coordination.zookeeper;

import static org.coalition.coordination.zookeeper.HostileWrites.JUNK;
import static org.coalition.coordination.zookeeper.HostileWrites.assertNoAuth;
import static org.coalition.coordination.zookeeper.HostileWrites.join;
import static org.coalition.testbed.Eventually.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
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
import org.coalition.coordination.SiteStatus;
import org.coalition.testbed.zookeeper.Ensemble;
import org.coalition.zookeeper.policy.FederationAcls;
import org.coalition.zookeeper.policy.Identity;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Sites do not trust each other's writes. Site b, bypassing Coalition's API with its own
 * authenticated ZooKeeper client, tries to rewrite site a's data, steal a's claim and forge a
 * result; ZooKeeper's ACLs refuse every attempt. Garbage a peer writes into its own nodes is
 * ignored with a warning, and nothing else is lost. Who a record is from is what the servers
 * know, never what the record says (issue #49): a live status is a site's only on an ephemeral
 * node of its own naming it, a claim and a result are the member's whose name the claim's ACL
 * carries (the servers' policy checked it); each of those cases failed on the code before.
 */
class ZkSecurityIT {
  private static Ensemble server;

  @BeforeAll
  static void start() throws Exception {
    server = SharedServer.get();
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
      c.publish(JobSpec.builder("j1", "c").cores(1).walltimeSeconds(60).build());
      a.publish(JobSpec.builder("own", "a").cores(1).walltimeSeconds(60).build());
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
      a.finish(claim, RunResult.builder(1, 2).build());
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
      bApi.publish(JobSpec.builder("good", "b").cores(1).walltimeSeconds(60).build());
      // b writes nonsense into nodes it owns: a job that is not JSON, one with a negative core count, one too big
      b.create().forPath(paths.jobsOf("b") + "/notjson", "<xml/>".getBytes(StandardCharsets.UTF_8));
      b.create().forPath(paths.jobsOf("b") + "/negative",
          "{\"jobId\":\"negative\",\"home\":\"b\",\"cores\":-4,\"memoryMb\":0,\"walltimeSeconds\":60,\"release\":0,\"payload\":\"\"}"
              .getBytes(StandardCharsets.UTF_8));
      b.create().forPath(paths.jobsOf("b") + "/huge", new byte[200_000]);
      b.setData().forPath(paths.ledger("b"), "[1,2,3]".getBytes(StandardCharsets.UTF_8));
      // A job published after the garbage: the cache applies events in the order ZooKeeper made them, so once a sees
      // this one, it has read (and judged) every malformed node before it.
      bApi.publish(JobSpec.builder("after", "b").cores(1).walltimeSeconds(60).release(1).build());
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
    try (ThreeSites sites = ThreeSites.withJobOfA(server)) {
      sites.bApi().claim(ThreeSites.REF).orElseThrow();
      // c must have seen the claim: else its stale queue would pass the wait below before a has read any result
      waitFor("c sees b's claim", () -> sites.c().queue().stream().noneMatch(j -> j.ref().equals(ThreeSites.REF)));
      // b writes its result node itself, with a body that is no result at all
      sites.b().create().withACL(FederationAcls.result(new Identity(sites.fed().name, "b"))).forPath(sites.paths().result(ThreeSites.REF),
          "{\"executor\":\"b\",\"token\":1,\"run\":{\"start\":5,\"end\":1e400}}"
          .getBytes(StandardCharsets.UTF_8));
      waitFor("a refuses the result and c sees the job queued again", () -> {
        sites.a().results();
        return sites.c().queue().stream().anyMatch(j -> j.ref().equals(ThreeSites.REF));
      });
      assertTrue(sites.a().results().isEmpty(), "nothing to fold");
      // c's cache may show the claim gone a moment before the job's new version (a claim checks the version), as a
      // daemon's next tick would, c tries again until it holds the job: it is queued again, not skipped for ever
      waitFor("queued again: c claims it", () -> {
        sites.a().results(); // as a's daemon reads its results every tick
        return sites.c().claim(ThreeSites.REF).isPresent();
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
    try (ThreeSites sites = ThreeSites.withJobOfA(server)) {
      // what b's own create left when its answer was lost: b's claim, under b's session
      sites.b().create().withACL(FederationAcls.claim(new Identity(sites.fed().name, "b"), new Identity(sites.fed().name, "a")))
          .forPath(sites.paths().claim(ThreeSites.REF), ZkRecords.write(ZkRecords.ClaimRecord.fresh("b", sites.bApi().session().id())));
      long token = sites.b().checkExists().forPath(sites.paths().claim(ThreeSites.REF)).getCzxid();
      assertTrue(sites.c().claim(ThreeSites.REF).isEmpty(), "another site's claim stays another's");
      Claim taken = sites.bApi().claim(ThreeSites.REF).orElseThrow(() -> new AssertionError("b's next attempt takes its orphan claim"));
      assertEquals(token, taken.token());
      assertTrue(sites.bApi().claim(ThreeSites.REF).isEmpty(), "handed out once: a second pilot of b does not get it too");
      sites.bApi().start(taken, 1);
      sites.bApi().finish(taken, RunResult.builder(1, 2).build());
      waitFor("a gets b's result", () -> sites.a().results().size() == 1);
      assertTrue(sites.bApi().claim(ThreeSites.REF).isEmpty(), "a job run to its end is not taken again");
    }
  }

  /**
   * Attacks 3 and 4: a live node b made persistent (so it outlives b's session, and, made first,
   * would lead for good), then one naming site a (which made the leader's BILB throw "site a
   * appears twice" every period). Neither counts b live; an honest one does.
   */
  @Test
  void aLiveStatusIsASitesOnlyOnAnEphemeralNodeOfItsOwnNamingIt() throws Exception {
    ZkTestFederation fed = new ZkTestFederation(server, Clock.systemUTC(), List.of("a", "b"));
    ZkPaths paths = new ZkPaths(fed.name);
    try (CuratorFramework b = ZkFederation.client(fed.connectString, fed.tls("b"), ZkFederation.Options.DEFAULT)) {
      b.create().withMode(CreateMode.PERSISTENT).forPath(paths.live("b"), ZkRecords.write(new SiteStatus("b", 8, 0, 0, 0, 100)));
      try (ZkCoordination a = fed.connect("a")) {
        join(a);
        waitFor("a refuses b's persistent live node", () -> a.refusedPeerRecords().getOrDefault("SiteStatus", 0L) >= 1);
        assertFalse(a.liveSites().containsKey("b"), "a persistent live node keeps no site live: " + a.liveSites());
        waitFor("a, not b's older persistent node, leads", a::isLeader);

        b.delete().forPath(paths.live("b"));
        b.create().withMode(CreateMode.EPHEMERAL).forPath(paths.live("b"), ZkRecords.write(new SiteStatus("a", 8, 0, 0, 0, 100)));
        waitFor("a refuses b's live status naming a", () -> a.refusedPeerRecords().getOrDefault("SiteStatus", 0L) >= 2);
        Map<String, SiteStatus> live = a.liveSites();
        assertFalse(live.containsKey("b"), "a status naming another site counts no one: " + live);
        assertEquals(List.of("a"), live.values().stream().map(SiteStatus::site).toList(), "each live site once, as itself");

        b.setData().forPath(paths.live("b"), ZkRecords.write(new SiteStatus("b", 8, 0, 0, 0, 100)));
        waitFor("b's honest status makes it live", () -> a.liveSites().containsKey("b"));
        assertTrue(a.isLeader(), "a, live first, leads");
      }
    }
  }

  /**
   * Attacks 5, 6 and 11: b claims three of a's jobs and hands in results naming another executor:
   * a real member that never ran them (c, which a would credit), none (null: it failed a's whole
   * round) and a site that does not exist (replayed every round, never acknowledged). a takes none
   * of them, credits no one and queues each job again.
   */
  @Test
  void aResultIsTheClaimersAndNoOneElses() throws Exception {
    try (ThreeSites sites = ThreeSites.withJobsOfA(server, ZkFederation.Options.DEFAULT, "j1", "j2", "j3")) {
      Map<String, String> executors = Map.of("j1", "\"c\"", "j2", "null", "j3", "\"nobody\"");
      for (Map.Entry<String, String> e : executors.entrySet()) {
        JobRef ref = new JobRef("a", e.getKey());
        Claim claim = sites.bApi().claim(ref).orElseThrow();
        sites.b().create().withACL(FederationAcls.result(sites.id("b"))).forPath(sites.paths().result(ref),
            ("{\"executor\":" + e.getValue() + ",\"token\":" + claim.token() + ",\"run\":{\"start\":1,\"end\":2,\"exitCode\":0,\"output\":\"\"}}")
                .getBytes(StandardCharsets.UTF_8));
      }
      waitFor("a refuses the three results and c sees their jobs queued again", () -> {
        assertTrue(sites.a().results().isEmpty(), "a takes none of them: " + sites.a().results());
        return sites.c().queue().stream().filter(j -> j.home().equals("a")).count() == 3;
      });
      assertEquals(3L, sites.a().refusedPeerRecords().get("ResultRecord"), "each refused once: " + sites.a().refusedPeerRecords());
      Map<String, SiteLedger> ledgers = sites.a().ledgers();
      assertEquals(SiteLedger.empty("c"), ledgers.getOrDefault("c", SiteLedger.empty("c")), "c is credited for nothing it did not run");
    }
  }

  /**
   * Attacks 7 and 10: b's claims whose records name another executor: c, whose session b reads
   * (so the cap counted them as c's and c's live session kept them), and {@code ""} (a path
   * under no site: the sweep stopped for every job). a's sweep counts each claim as the member's
   * that made it, refuses the records and queues all four jobs again.
   */
  @Test
  void aClaimIsTheMembersThatMadeItWhateverItsRecordSays() throws Exception {
    ZkFederation.Options aRules = new ZkFederation.Options(Duration.ofSeconds(10), Duration.ofSeconds(5), Duration.ofMinutes(5), 3);
    try (ThreeSites sites = ThreeSites.withJobsOfA(server, aRules, "j1", "j2", "j3", "j4")) {
      long cSession = sites.c().session().id();
      for (String id : List.of("j1", "j2", "j3", "j4")) {
        String executor = id.equals("j4") ? "" : "c";
        sites.b().create().withACL(FederationAcls.claim(sites.id("b"), sites.id("a"))).forPath(sites.paths().claim(new JobRef("a", id)),
            ("{\"executor\":\"" + executor + "\",\"session\":" + cSession + ",\"startTime\":-1,\"released\":false}")
                .getBytes(StandardCharsets.UTF_8));
      }
      // a's view rechecks each new claim on its jobs by itself; the sweep is what a daemon runs too
      sites.a().requeueLost();
      waitFor("c sees a's four jobs queued again, the sweep not stopped by one", () -> {
        sites.a().requeueLost();
        return sites.c().queue().stream().filter(j -> j.home().equals("a")).count() == 4;
      });
      assertEquals(4L, sites.a().refusedPeerRecords().get("ClaimRecord"), "each refused once: " + sites.a().refusedPeerRecords());
    }
  }
}
