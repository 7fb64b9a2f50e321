package org.coalition.coordination.zookeeper;

import static org.coalition.coordination.zookeeper.HostileWrites.join;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.coalition.coordination.JobSpec;
import org.coalition.testbed.Eventually;
import org.coalition.testbed.zookeeper.Ensemble;
import org.coalition.trust.StoreFiles;
import org.coalition.zookeeper.policy.Identity;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The operator's removal of a member and rotation of its key, enforced by the servers of a
 * three-server ensemble (so that writes of sessions held by followers, which reach the leader
 * without their connection, are checked too): an old key is refused on the sessions it already
 * holds and on new ones, once the overlap ends; the new key is taken; a removed site can read
 * nothing more, its jobs leave the queue, and the others go on.
 */
class ZkRevocationIT {
  private static Ensemble servers;
  private static Path keys;

  @BeforeAll
  static void start() throws Exception {
    servers = Ensemble.start(3);
    keys = Files.createTempDirectory("revocation-keys");
  }

  @AfterAll
  static void stop() throws Exception {
    servers.close();
  }

  @Test
  void aRotatedKeysPredecessorIsRefusedOnceTheOverlapEndsAndTheNewKeyIsTaken() throws Exception {
    ZkTestFederation fed = new ZkTestFederation(servers, Clock.systemUTC(), List.of("a", "b"));
    ZkPaths paths = new ZkPaths(fed.name);
    ZkTls old = fed.tls("a");
    try (CuratorFramework before = ZkFederation.client(fed.connectString, old, ZkFederation.Options.DEFAULT)) {
      byte[] info = before.getData().forPath(paths.site("a"));
      Thread.sleep(1_100); // a certificate's notBefore counts whole seconds: the new one is a second younger
      Path fresh = issue(fed, "a", "a-2.p12");
      long overlapEnds = System.currentTimeMillis() + 4_000;
      ZkMemberChanges.revokeBefore(fed.connectString, fed.operator(), "a", issuedAt(fresh), overlapEnds);
      before.setData().forPath(paths.site("a"), info); // within the overlap: still taken
      Eventually.waitFor("the overlap to end", Duration.ofSeconds(10), () -> System.currentTimeMillis() > overlapEnds + 200);
      assertThrows(KeeperException.NoAuthException.class, () -> before.setData().forPath(paths.site("a"), info),
          "the session the old key opened is refused once the overlap ends");
      assertThrows(KeeperException.NoAuthException.class, () -> before.getData().forPath(paths.root), "and reads nothing more");
      assertRefusedAtConnection(fed, old);
      try (CuratorFramework after = ZkFederation.client(fed.connectString, tls(fresh), ZkFederation.Options.DEFAULT)) {
        after.setData().forPath(paths.site("a"), info);
      }
      try (ZkCoordination a = ZkFederation.connect(fed.connectString, tls(fresh), fed.clock, ZkFederation.Options.DEFAULT)) {
        join(a);
        a.publish(JobSpec.builder("after-rotation", "a").cores(1).walltimeSeconds(60).build());
      }
    }
  }

  @Test
  void aRemovedSiteIsRefusedAtOnceItsJobsLeaveAndTheOthersGoOn() throws Exception {
    ZkTestFederation fed = new ZkTestFederation(servers, Clock.systemUTC(), List.of("a", "b", "c"));
    ZkPaths paths = new ZkPaths(fed.name);
    try (ZkCoordination a = fed.connect("a");
        ZkCoordination b = fed.connect("b");
        CuratorFramework bRaw = ZkFederation.client(fed.connectString, fed.tls("b"), ZkFederation.Options.DEFAULT)) {
      join(a);
      join(b);
      b.publish(JobSpec.builder("b1", "b").cores(1).walltimeSeconds(60).build());
      assertNotNull(bRaw.getData().forPath(paths.root), "a member reads the federation's record");
      ZkMemberChanges.remove(fed.connectString, fed.operator(), "b");
      assertThrows(KeeperException.NoAuthException.class, () -> bRaw.getData().forPath(paths.root), "refused on its open session");
      assertThrows(KeeperException.NoAuthException.class, () -> bRaw.getData().forPath(paths.site("a")));
      assertRefusedAtConnection(fed, fed.tls("b"));
      try (CuratorFramework op = ZkFederation.client(fed.connectString, fed.operator(), ZkFederation.Options.DEFAULT)) {
        assertNull(op.checkExists().forPath(paths.jobsOf("b")), "its jobs left the queue");
        assertNull(op.checkExists().forPath(paths.site("b")));
      }
      assertFalse(ZkFederation.members(fed.connectString, fed.operator()).stream().anyMatch(m -> m.site().equals("b")));
      a.publish(JobSpec.builder("a1", "a").cores(1).walltimeSeconds(60).build());
      Eventually.waitFor("a to see b gone", Duration.ofSeconds(20), () -> !a.liveSites().containsKey("b"));
      // added again: only a key issued now is taken, the old one stays refused
      Thread.sleep(1_100);
      ZkFederation.bootstrap(fed.connectString, fed.operator(), List.of("b"), fed.clock);
      Path fresh = issue(fed, "b", "b-2.p12");
      ZkMemberChanges.revokeBefore(fed.connectString, fed.operator(), "b", issuedAt(fresh), 0);
      assertRefusedAtConnection(fed, fed.tls("b"));
      try (ZkCoordination back = ZkFederation.connect(fed.connectString, tls(fresh), fed.clock, ZkFederation.Options.DEFAULT)) {
        join(back);
        back.publish(JobSpec.builder("b2", "b").cores(1).walltimeSeconds(60).build());
        assertTrue(a.liveSites().containsKey("a"));
      }
    }
  }

  /** A new session with {@code tls} fails: the servers refuse the certificate when it authenticates. */
  private static void assertRefusedAtConnection(ZkTestFederation fed, ZkTls tls) {
    Exception e = assertThrows(Exception.class, () -> {
      try (CuratorFramework c = ZkFederation.client(fed.connectString, tls, ZkFederation.Options.DEFAULT)) {
        c.getData().forPath(new ZkPaths(fed.name).root);
      }
    });
    assertTrue(String.valueOf(e).contains("AuthFailed") || String.valueOf(e).contains("NoAuth") || String.valueOf(e.getCause()).contains("Auth"),
        "refused for its certificate, not for another reason: " + e);
  }

  private static Path issue(ZkTestFederation fed, String site, String file) {
    return servers.ca().issue(new Identity(fed.name, site), List.of(), keys.resolve(fed.name + "-" + file));
  }

  private static ZkTls tls(Path store) {
    return new ZkTls(store, servers.trustStore());
  }

  private static long issuedAt(Path store) throws Exception {
    return ((X509Certificate) StoreFiles.load(store, true).getCertificate("identity")).getNotBefore().getTime();
  }
}
