package org.coalition.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.retry.RetryOneTime;
import org.apache.zookeeper.Quotas;
import org.coalition.coordination.SiteInfo;
import org.coalition.coordination.SiteStatus;
import org.coalition.coordination.zookeeper.ZkCoordination;
import org.coalition.coordination.zookeeper.ZkFederation;
import org.coalition.coordination.zookeeper.ZkTls;
import org.coalition.testbed.zookeeper.Ensemble;
import org.coalition.trust.StoreFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An operator's whole path with {@code coalition federation}: a CA, the identities, the
 * federation created on a real ZooKeeper server that trusts the CA, sites joining with what
 * {@code issue} gave them; and the inputs an operator gets wrong.
 */
class FederationCommandIT {
  @TempDir Path tmp;

  private static CliRun run(String... args) {
    return CliRun.of(args);
  }

  private static String[] with(String[] head, String... more) {
    String[] all = Arrays.copyOf(head, head.length + more.length);
    System.arraycopy(more, 0, all, head.length, more.length);
    return all;
  }

  private Path issue(Path ca, String name) {
    Path out = tmp.resolve(name + ".p12");
    CliRun r = run("federation", "issue", "--ca", ca.toString(), "--federation", "fed", "--out", out.toString(), name);
    assertEquals(0, r.exit(), r.err());
    return out;
  }

  private static void joins(String zk, Path identity, Path trust) {
    try (ZkCoordination c = ZkFederation.connect(zk, new ZkTls(identity, trust), Clock.systemUTC(),
        new ZkFederation.Options(Duration.ofSeconds(6), Duration.ofSeconds(10)))) {
      assertTrue(c.connected(), identity + " joined");
    }
  }

  @Test
  void anOperatorMakesACaIssuesIdentitiesCreatesTheFederationAndAddsSitesLater() throws Exception {
    Path ca = tmp.resolve("ca");
    CliRun made = run("federation", "ca", "--dir", ca.toString(), "--name", "fed", "--json");
    assertEquals(0, made.exit(), made.err());
    assertTrue(made.out().contains("\"trust\" : \"" + ca.resolve("trust.p12") + "\""), made.out());
    Path operator = issue(ca, "operator");
    Path north = issue(ca, "north");
    Path south = issue(ca, "south");
    Path server = tmp.resolve("zk.p12");
    assertEquals(0, run("federation", "issue", "--ca", ca.toString(), "--server", "--host", "127.0.0.1", "--out", server.toString(),
        "localhost").exit());
    Path trust = ca.resolve("trust.p12");

    // the ensemble's CA would do as well; here the servers trust this operator's CA, as in production
    try (Ensemble zk = Ensemble.start(1)) {
      String[] create = {"federation", "create", "--zookeeper", zk.connectString(), "--identity", operator.toString(), "--trust",
          zk.trustStore().toString()};
      // the testbed's servers trust their own CA: an operator of this CA is refused by the TLS handshake
      // #51, problem 3: both were "no ZooKeeper server answered"; now each says whose certificate is not trusted
      CliRun stranger = run(with(create, "--site", "north"));
      assertEquals(ExitCodes.UNAVAILABLE, stranger.exit(), stranger.err());
      assertTrue(stranger.err().contains(zk.connectString() + ": the server does not trust this party's certificate (" + operator + ")"),
          stranger.err());
      CliRun distrusted = run("federation", "create", "--zookeeper", zk.connectString(), "--identity", operator.toString(), "--trust",
          trust.toString(), "--site", "north");
      assertEquals(ExitCodes.UNAVAILABLE, distrusted.exit(), distrusted.err());
      assertTrue(distrusted.err().contains(zk.connectString() + ": the server's certificate is not signed by the CA of " + trust),
          distrusted.err());
    }
    try (Ensemble zk = Ensemble.start(1, server, trust)) {
      String[] create = {"federation", "create", "--zookeeper", zk.connectString(), "--identity", operator.toString(), "--trust", trust.toString()};
      CliRun first = run(with(create, "--site", "north"));
      assertEquals(0, first.exit(), first.err());
      assertEquals("federation fed at " + zk.connectString() + ": member sites north, each held to 10000 nodes, 16 MiB by the servers\n",
          first.out());
      joins(zk.connectString(), north, trust);

      CliRun tooSmall = run(with(create, "--site", "south", "--member-nodes", "3"));
      assertEquals(ExitCodes.USAGE, tooSmall.exit(), tooSmall.err());
      assertTrue(tooSmall.err().contains("a member's quota needs at least 4 nodes"), tooSmall.err());
      CliRun again = run(with(create, "--site", "south", "--json", "--member-nodes", "100", "--member-mib", "1"));
      assertEquals(0, again.exit(), again.err());
      assertTrue(again.out().contains("\"sites\" : [ \"south\" ]"), again.out());
      assertTrue(again.out().replaceAll("\\s", "").contains("\"memberQuota\":{\"nodes\":100,\"mib\":1}")
          || again.out().replaceAll("\\s", "").contains("\"memberQuota\":{\"mib\":1,\"nodes\":100}"), again.out());
      try (CuratorFramework asOperator = new ZkTls(operator, trust).curator(zk.connectString()).retryPolicy(new RetryOneTime(100)).build()) {
        asOperator.start();
        String limits = new String(asOperator.getData().forPath(Quotas.limitPath("/coalition/fed/jobs/south")), StandardCharsets.UTF_8);
        assertTrue(limits.contains("countHardLimit=100") && limits.contains("byteHardLimit=1048576"), "south's quota on the servers: " + limits);
      }
      joins(zk.connectString(), south, trust);
      joins(zk.connectString(), north, trust);

      String[] list = {"federation", "list", "--zookeeper", zk.connectString(), "--identity", operator.toString(), "--trust", trust.toString()};
      CliRun members = run(list);
      assertEquals(0, members.exit(), members.err());
      assertTrue(members.out().contains("north") && members.out().contains("south") && members.out().contains("fed/north"), members.out());
      assertTrue(members.out().contains("gone"), "neither daemon is connected now: " + members.out());
      try (ZkCoordination live = ZkFederation.connect(zk.connectString(), new ZkTls(north, trust), Clock.systemUTC(),
          new ZkFederation.Options(Duration.ofSeconds(6), Duration.ofSeconds(10)))) {
        live.join(new SiteInfo("north", "", 8), new SiteStatus("north", 8, 0, 0, 0, 100)); // as its daemon does at start
        CliRun json = run(with(list, "--json"));
        assertEquals(0, json.exit(), json.err());
        assertTrue(json.out().contains("\"site\" : \"north\",\n    \"identity\" : \"fed/north\",\n    \"live\" : true"), json.out());
        assertTrue(json.out().contains("\"site\" : \"south\",\n    \"identity\" : \"fed/south\",\n    \"live\" : false"), json.out());
      }
      CliRun notOperatorList = run("federation", "list", "--zookeeper", zk.connectString(), "--identity", north.toString(), "--trust",
          trust.toString());
      assertEquals(ExitCodes.BAD_INPUT, notOperatorList.exit(), notOperatorList.err());

      CliRun notOperator = run("federation", "create", "--zookeeper", zk.connectString(), "--identity", north.toString(), "--trust",
          trust.toString(), "--site", "west");
      assertEquals(ExitCodes.BAD_INPUT, notOperator.exit(), notOperator.err());
      assertTrue(notOperator.err().contains("only the federation's operator creates its tree; this identity is fed/north"), notOperator.err());
    }
  }

  /** add issues a member's key and admits it; rotate admits a new one and refuses the old; remove refuses every key of the site. */
  @Test
  void addRotateAndRemoveChangeWhichKeysTheServersTake() throws Exception {
    Path ca = tmp.resolve("ca");
    assertEquals(0, run("federation", "ca", "--dir", ca.toString(), "--name", "fed").exit());
    Path operator = issue(ca, "operator");
    Path server = tmp.resolve("zk.p12");
    assertEquals(0, run("federation", "issue", "--ca", ca.toString(), "--server", "--host", "127.0.0.1", "--out", server.toString(),
        "localhost").exit());
    Path trust = ca.resolve("trust.p12");
    try (Ensemble zk = Ensemble.start(1, server, trust)) {
      String[] op = {"--zookeeper", zk.connectString(), "--identity", operator.toString(), "--trust", trust.toString()};
      CliRun created = run(with(with(new String[] {"federation", "create"}, op)));
      assertEquals(0, created.exit(), created.err());
      assertTrue(created.out().contains("no member sites yet"), created.out());
      CliRun market = run(with(with(new String[] {"federation", "market", "--gate-in-day", "10h", "--reveal-window", "5m", "--json"}, op)));
      assertEquals(0, market.exit(), market.err());
      assertTrue(market.out().contains("\"gateBeforeDaySeconds\" : -36000"), market.out());
      CliRun forgot = run(with(with(new String[] {"federation", "market", "--forget-before", "2026-12-01"}, op)));
      assertEquals(0, forgot.exit(), forgot.err());
      assertTrue(forgot.out().contains("deleted 0 members' market days before 2026-12-01"), forgot.out());
      CliRun loose = run(with(with(new String[] {"federation", "market", "--slot", "7m"}, op)));
      assertEquals(ExitCodes.USAGE, loose.exit(), loose.out());
      assertTrue(loose.err().startsWith("coalition federation market: a market slot must be whole seconds, at least a minute, and divide a day"),
          loose.err());
      Path north = tmp.resolve("north.p12");
      CliRun added = run(with(with(new String[] {"federation", "add", "--ca", ca.toString(), "--out", north.toString()}, op), "north"));
      assertEquals(0, added.exit(), added.err());
      assertTrue(added.out().startsWith("added site fed/north"), added.out());
      assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(north)));
      joins(zk.connectString(), north, trust);
      CliRun again = run(with(with(new String[] {"federation", "add", "--ca", ca.toString(), "--out", tmp.resolve("n2.p12").toString()}, op),
          "north"));
      assertEquals(ExitCodes.BAD_INPUT, again.exit(), again.err());
      assertTrue(again.err().contains("already a member of federation fed; coalition federation rotate gives it a new key"), again.err());

      Path old = tmp.resolve("north-old.p12");
      Files.copy(north, old);
      Files.copy(StoreFiles.passwordFile(north), StoreFiles.passwordFile(old));
      Thread.sleep(1_100); // keys are told apart by their issue time, to the second
      CliRun rotated = run(with(with(new String[] {"federation", "rotate", "--ca", ca.toString(), "--out", north.toString(), "--overlap", "0s",
          "--json"}, op), "north"));
      assertEquals(0, rotated.exit(), rotated.err());
      assertTrue(rotated.out().contains("\"olderCertificatesRefusedFrom\""), rotated.out());
      joins(zk.connectString(), north, trust);
      assertThrows(RuntimeException.class, () -> joins(zk.connectString(), old, trust), "the rotated-out key is refused");

      CliRun stranger = run(with(with(new String[] {"federation", "rotate", "--ca", ca.toString(), "--out", tmp.resolve("x.p12").toString()},
          op), "west"));
      assertEquals(ExitCodes.BAD_INPUT, stranger.exit(), stranger.err());
      assertTrue(stranger.err().contains("'west' is not a member of federation fed"), stranger.err());

      CliRun removed = run(with(with(new String[] {"federation", "remove"}, op), "north"));
      assertEquals(0, removed.exit(), removed.err());
      assertThrows(RuntimeException.class, () -> joins(zk.connectString(), north, trust), "a removed site's key is refused");
      CliRun members = run(with(with(new String[] {"federation", "list"}, op), "--json"));
      assertFalse(members.out().contains("north"), members.out());
      CliRun twice = run(with(with(new String[] {"federation", "remove"}, op), "north"));
      assertEquals(ExitCodes.BAD_INPUT, twice.exit(), twice.err());
    }
  }

  @Test
  void aKeyWhosePasswordOthersCanReadOrASecondCaIsRefusedWithoutEchoingSecrets() throws Exception {
    Path ca = tmp.resolve("ca");
    assertEquals(0, run("federation", "ca", "--dir", ca.toString(), "--name", "fed").exit());
    CliRun twice = run("federation", "ca", "--dir", ca.toString(), "--name", "fed");
    assertEquals(ExitCodes.BAD_INPUT, twice.exit());
    assertTrue(twice.err().contains("a CA is already here"), twice.err());

    Path operator = issue(ca, "operator");
    Files.setPosixFilePermissions(StoreFiles.passwordFile(operator), PosixFilePermissions.fromString("rw-r--r--"));
    CliRun loose = run("federation", "create", "--zookeeper", "127.0.0.1:1", "--identity", operator.toString(), "--trust",
        ca.resolve("trust.p12").toString(), "--site", "north");
    assertEquals(ExitCodes.BAD_INPUT, loose.exit());
    assertTrue(loose.err().contains("run: chmod 600 " + StoreFiles.passwordFile(operator)), loose.err());
    assertFalse(loose.err().contains(new String(StoreFiles.password(operator, false))), "the password is never echoed");

    CliRun badName = run("federation", "issue", "--ca", ca.toString(), "--federation", "fed", "--out", tmp.resolve("x.p12").toString(), "no/pe");
    assertEquals(ExitCodes.USAGE, badName.exit());
    assertTrue(badName.err().contains("is not a name"), badName.err());
  }

  @Test
  void zooKeeperThatDoesNotAnswerIsExitThree() throws Exception {
    Path ca = tmp.resolve("ca");
    assertEquals(0, run("federation", "ca", "--dir", ca.toString(), "--name", "fed").exit());
    Path operator = issue(ca, "operator");
    CliRun r = run("federation", "create", "--zookeeper", "127.0.0.1:1", "--identity", operator.toString(), "--trust",
        ca.resolve("trust.p12").toString(), "--site", "north");
    assertEquals(ExitCodes.UNAVAILABLE, r.exit(), r.err());
    assertTrue(r.err().startsWith("coalition federation create: no ZooKeeper server took a connection at 127.0.0.1:1: 127.0.0.1:1: nothing"
        + " answers there"), r.err());
  }
}
