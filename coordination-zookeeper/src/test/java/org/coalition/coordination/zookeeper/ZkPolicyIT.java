package org.coalition.coordination.zookeeper;

import static org.coalition.coordination.zookeeper.HostileWrites.JUNK;
import static org.coalition.coordination.zookeeper.HostileWrites.assertNoAuth;
import static org.coalition.coordination.zookeeper.HostileWrites.join;
import static org.coalition.testbed.Eventually.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.Watcher.Event.KeeperState;
import org.apache.zookeeper.ZooDefs.Perms;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.coalition.coordination.Claim;
import org.coalition.coordination.CoordinationException;
import org.coalition.coordination.JobRef;
import org.coalition.coordination.JobSpec;
import org.coalition.coordination.RunResult;
import org.coalition.testbed.zookeeper.Ensemble;
import org.coalition.trust.FederationCa;
import org.coalition.trust.StoreFiles;
import org.coalition.zookeeper.policy.FederationAcls;
import org.coalition.zookeeper.policy.Identity;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The write rules the servers' FederationAclProvider adds to plain ACLs, shown on a real server
 * over TLS: member b, with its own ZooKeeper client and bypassing Coalition's code, may add to
 * another site's job exactly a claim with the prescribed ACL and to its own claim exactly a
 * result; everything else, and every stranger, is refused.
 */
class ZkPolicyIT {
  private static Ensemble server;

  @TempDir
  Path tmp;

  @BeforeAll
  static void start() throws Exception {
    server = SharedServer.get();
  }

  @Test
  void underAnotherSitesJobAMemberMayAddOnlyItsClaimAndUnderItOnlyItsResult() throws Exception {
    ZkTestFederation fed = new ZkTestFederation(server, Clock.systemUTC(), List.of("a", "b", "c"));
    ZkPaths paths = new ZkPaths(fed.name);
    Identity a = new Identity(fed.name, "a");
    Identity b = new Identity(fed.name, "b");
    try (ZkCoordination aApi = fed.connect("a");
        ZkCoordination bApi = fed.connect("b");
        CuratorFramework bRaw = ZkFederation.client(fed.connectString, fed.tls("b"), ZkFederation.Options.DEFAULT);
        CuratorFramework cRaw = ZkFederation.client(fed.connectString, fed.tls("c"), ZkFederation.Options.DEFAULT)) {
      join(aApi);
      join(bApi);
      aApi.publish(JobSpec.builder("j1", "a").cores(1).walltimeSeconds(60).build());
      aApi.publish(JobSpec.builder("j2", "a").cores(1).walltimeSeconds(60).build());
      JobRef j1 = new JobRef("a", "j1");
      String job = paths.job(j1);

      assertNoAuth("add a child that is no claim (it would stop a's withdrawal)",
          () -> bRaw.create().withACL(FederationAcls.claim(b, a)).forPath(job + "/squat", JUNK));
      assertNoAuth("claim with an ACL of its own (ADMIN kept, a shut out)", () -> bRaw.create().withACL(FederationAcls.own(b)).forPath(paths.claim(j1), JUNK));
      List<ACL> more = new ArrayList<>(FederationAcls.claim(b, a));
      more.add(new ACL(Perms.ADMIN, new Id("coalition", "site:" + b)));
      assertNoAuth("claim with the prescribed ACL plus ADMIN", () -> bRaw.create().withACL(more).forPath(paths.claim(j1), JUNK));
      assertNoAuth("claim in c's name", () -> bRaw.create().withACL(FederationAcls.claim(new Identity(fed.name, "c"), a)).forPath(paths.claim(j1), JUNK));
      assertTrue(aApi.withdraw("j2"), "a withdraws its jobs: no one could add a child that stops it");

      waitFor("b sees j1", () -> bApi.queue().stream().anyMatch(j -> j.ref().equals(j1)));
      Claim claim = bApi.claim(j1).orElseThrow();
      assertNoAuth("change its claim's ACL", () -> bRaw.setACL().withACL(FederationAcls.own(b)).forPath(paths.claim(j1)));
      assertNoAuth("delete its claim under a's job", () -> bRaw.delete().forPath(paths.claim(j1)));
      assertNoAuth("add a child to its claim that is no result",
          () -> bRaw.create().withACL(FederationAcls.result(b)).forPath(paths.claim(j1) + "/extra", JUNK));
      assertNoAuth("add a result it could rewrite", () -> bRaw.create().withACL(FederationAcls.own(b)).forPath(paths.result(j1), JUNK));
      assertNoAuth("c adds a result under b's claim", () -> cRaw.create().withACL(FederationAcls.result(new Identity(fed.name, "c")))
          .forPath(paths.result(j1), JUNK));
      bApi.heartbeat(claim); // renewing its claim (a write to it) is allowed
      assertTrue(bApi.holds(claim));

      bApi.start(claim, 1);
      bApi.finish(claim, RunResult.builder(1, 2).build());
      waitFor("a gets b's result", () -> aApi.results().size() == 1);
      assertEquals("b", aApi.results().get(0).executor());
      assertEquals(1, aApi.acknowledge(aApi.results()));
      waitFor("a's acknowledgement removes the job, its claim and the result", () -> aRawGone(fed, paths.jobsOf("a")));
    }
  }

  /**
   * Issue #49's first attack: a member that re-ACLs its own ledger row and site record shuts every
   * other member out of reading them, and every honest round fails. The servers refuse a member's
   * setACL on any node, and a node it makes among its own must carry its own nodes' lists.
   */
  @Test
  void aMemberCannotShutTheOthersOutOfItsOwnNodes() throws Exception {
    ZkTestFederation fed = new ZkTestFederation(server, Clock.systemUTC(), List.of("a", "b"));
    ZkPaths paths = new ZkPaths(fed.name);
    Identity b = new Identity(fed.name, "b");
    List<ACL> hidden = List.of(new ACL(Perms.ALL, new Id("coalition", "site:" + b)));
    try (ZkCoordination aApi = fed.connect("a");
        ZkCoordination bApi = fed.connect("b");
        CuratorFramework bRaw = ZkFederation.client(fed.connectString, fed.tls("b"), ZkFederation.Options.DEFAULT);
        CuratorFramework aRaw = ZkFederation.client(fed.connectString, fed.tls("a"), ZkFederation.Options.DEFAULT)) {
      join(aApi);
      join(bApi);
      bApi.publish(JobSpec.builder("j1", "b").cores(1).walltimeSeconds(60).build());
      for (String node : List.of(paths.ledger("b"), paths.site("b"), paths.live("b"), paths.allowances("b"), paths.job(new JobRef("b", "j1")))) {
        assertNoAuth("re-ACL its own node " + node + " so that only it reads it", () -> bRaw.setACL().withACL(hidden).forPath(node));
        aRaw.getData().forPath(node); // a still reads it
      }
      assertNoAuth("publish a job the others cannot read", () -> bRaw.create().withACL(hidden).forPath(paths.jobsOf("b") + "/hidden", JUNK));
      assertNoAuth("publish a job with a made-up entry more",
          () -> bRaw.create().withACL(withEntry(FederationAcls.job(b), new ACL(Perms.READ, new Id("coalition", "site:" + fed.name + "/a"))))
              .forPath(paths.jobsOf("b") + "/extra", JUNK));
      for (String place : List.of(paths.ledger("b"), paths.allowances("b"), paths.site("b"), paths.job(new JobRef("b", "j1")))) {
        assertNoAuth("add nodes under " + place + " (bulk outside its jobs' folder)",
            () -> bRaw.create().withACL(FederationAcls.own(b)).forPath(place + "/bulk", JUNK));
      }
      bRaw.delete().forPath(paths.job(new JobRef("b", "j1")));
      bRaw.create().withACL(FederationAcls.job(b)).forPath(paths.job(new JobRef("b", "j1")), JUNK); // its own list: allowed
      aRaw.getData().forPath(paths.job(new JobRef("b", "j1")));
    }
  }

  private static List<ACL> withEntry(List<ACL> acl, ACL entry) {
    List<ACL> more = new ArrayList<>(acl);
    more.add(entry);
    return more;
  }

  @Test
  void strangersGetNothing() throws Exception {
    ZkTestFederation fed = new ZkTestFederation(server, Clock.systemUTC(), List.of("a"));
    ZkTestFederation other = new ZkTestFederation(server, Clock.systemUTC(), List.of("x"));
    ZkPaths paths = new ZkPaths(fed.name);
    ZkFederation.Options quick = new ZkFederation.Options(Duration.ofSeconds(10), Duration.ofSeconds(3));

    // another CA's certificate naming a member: the TLS handshake fails, so no connection at all
    FederationCa stranger = FederationCa.create(tmp.resolve("stranger"), "a stranger");
    ZkTls forged = new ZkTls(stranger.issue(new Identity(fed.name, "a"), List.of(), tmp.resolve("a.p12")), server.trustStore());
    CoordinationException e = assertThrows(CoordinationException.class, () -> ZkFederation.client(fed.connectString, forged, quick).close());
    assertEquals(CoordinationException.Kind.UNAVAILABLE, e.kind());

    // a member of another federation on the same ensemble reads nothing of this one and cannot claim in it
    try (ZkCoordination aApi = fed.connect("a");
        CuratorFramework x = ZkFederation.client(fed.connectString, other.tls("x"), quick)) {
      join(aApi);
      aApi.publish(JobSpec.builder("j", "a").cores(1).walltimeSeconds(60).build());
      assertNoAuth("read the member list", () -> x.getData().forPath(paths.root));
      assertNoAuth("read a's job", () -> x.getData().forPath(paths.job(new JobRef("a", "j"))));
      assertNoAuth("claim", () -> x.create().withACL(FederationAcls.claim(new Identity(other.name, "x"), new Identity(fed.name, "a")))
          .forPath(paths.jobsOf("a") + "/j/claim", JUNK));
      CoordinationException notMember = assertThrows(CoordinationException.class, () -> ZkFederation.connect(fed.connectString,
          new ZkTls(server.identity(new Identity(fed.name, "x")), server.trustStore()), Clock.systemUTC(), quick));
      assertTrue(notMember.getMessage().contains("is not a member"), notMember.getMessage());
    }

    // a server's certificate (the ensemble CA's too) names no member: its auth is refused and it reads nothing
    Path serverKey = server.ca().issueServer("localhost", List.of("127.0.0.1"), tmp.resolve("server.p12"));
    CountDownLatch refused = new CountDownLatch(1);
    ZooKeeper raw = new ZooKeeper(fed.connectString, 10_000, ev -> {
      if (ev.getState() == KeeperState.AuthFailed) {
        refused.countDown();
      }
    }, false, rawTls(serverKey));
    try {
      raw.addAuthInfo("coalition", new byte[0]);
      assertTrue(refused.await(10, TimeUnit.SECONDS), "the server refuses the auth of a certificate that names no identity");
    } finally {
      raw.close();
    }
  }

  private static boolean aRawGone(ZkTestFederation fed, String jobsOfA) {
    try (CuratorFramework c = ZkFederation.client(fed.connectString, fed.tls("a"), ZkFederation.Options.DEFAULT)) {
      return c.getChildren().forPath(jobsOfA).isEmpty();
    } catch (Exception e) {
      return false;
    }
  }

  /** A TLS client configuration for any key store (ZkTls accepts only identities). */
  private static ZKClientConfig rawTls(Path keyStore) throws Exception {
    ZKClientConfig config = new ZkTls(server.identity(new Identity("any", "one")), server.trustStore()).clientConfig();
    config.setProperty("zookeeper.ssl.keyStore.location", keyStore.toString());
    config.setProperty("zookeeper.ssl.keyStore.passwordPath", StoreFiles.passwordFile(keyStore).toString());
    return config;
  }
}
