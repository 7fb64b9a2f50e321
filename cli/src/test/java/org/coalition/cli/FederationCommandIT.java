package org.coalition.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import org.coalition.coordination.zookeeper.ZkCoordination;
import org.coalition.coordination.zookeeper.ZkFederation;
import org.coalition.testbed.zookeeper.Ensemble;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code coalition federation create} against a real ZooKeeper server, and with the inputs an operator gets wrong. */
class FederationCommandIT {
  @TempDir Path tmp;

  private Path secret(String name, String value, String mode) throws Exception {
    Path f = tmp.resolve(name);
    Files.writeString(f, value + "\n");
    Files.setPosixFilePermissions(f, PosixFilePermissions.fromString(mode));
    return f;
  }

  /** {@code coalition federation create} of federation "fed" with the operator's secret {@code operator} and {@code more} arguments. */
  private static CliRun create(String zk, Path operator, String... more) {
    String[] args = {"federation", "create", "--zookeeper", zk, "--name", "fed", "--operator-secret-file", operator.toString()};
    String[] all = Arrays.copyOf(args, args.length + more.length);
    System.arraycopy(more, 0, all, args.length, more.length);
    return CliRun.of(all);
  }

  private static void joins(String zk, String site, String secret) {
    try (ZkCoordination c = ZkFederation.connect(zk, "fed", site, secret, Clock.systemUTC(),
        new ZkFederation.Options(Duration.ofSeconds(6), Duration.ofSeconds(10)))) {
      assertTrue(c.connected(), site + " joined");
    }
  }

  @Test
  void createsAFederationItsSitesCanJoinAndAddsSitesWhenRunAgain() throws Exception {
    try (Ensemble zk = Ensemble.start(1)) {
      Path op = secret("op", "operator-secret-0123456789", "rw-------");
      Path north = secret("north", "north-secret-0123456789", "rw-------");
      Path south = secret("south", "south-secret-0123456789", "rw-------");
      CliRun first = create(zk.connectString(), op, "--site", "north=" + north);
      assertEquals(0, first.exit(), first.err());
      assertEquals("federation fed at " + zk.connectString() + ": member sites north\n", first.out());
      joins(zk.connectString(), "north", "north-secret-0123456789");

      CliRun again = create(zk.connectString(), op, "--site", "south=" + south, "--json");
      assertEquals(0, again.exit(), again.err());
      assertTrue(again.out().contains("\"sites\" : [ \"south\" ]"), again.out());
      joins(zk.connectString(), "south", "south-secret-0123456789");
      joins(zk.connectString(), "north", "north-secret-0123456789");
    }
  }

  @Test
  void aSecretOthersCanReadOrAMissingFileIsRefusedWithoutEchoingIt() throws Exception {
    Path op = secret("op", "operator-secret-0123456789", "rw-------");
    Path loose = secret("loose", "north-secret-0123456789", "rw-r--r--");
    CliRun r = create("127.0.0.1:1", op, "--site", "north=" + loose);
    assertEquals(ExitCodes.BAD_INPUT, r.exit());
    assertEquals("coalition federation create: " + loose + ": the secret of site north is readable by others; chmod 600 " + loose + "\n",
        r.err());
    assertFalse(r.err().contains("north-secret"), "the secret is never echoed");
    CliRun missing = create("127.0.0.1:1", tmp.resolve("nope"), "--site", "north=" + loose);
    assertEquals(ExitCodes.BAD_INPUT, missing.exit());
    assertTrue(missing.err().contains("nope: the operator's secret is missing"), missing.err());
  }

  @Test
  void zooKeeperThatDoesNotAnswerIsExitThree() throws Exception {
    Path op = secret("op", "operator-secret-0123456789", "rw-------");
    Path north = secret("north", "north-secret-0123456789", "rw-------");
    CliRun r = create("127.0.0.1:1", op, "--site", "north=" + north);
    assertEquals(ExitCodes.UNAVAILABLE, r.exit(), r.err());
    assertTrue(r.err().startsWith("coalition federation create: no ZooKeeper server answered at 127.0.0.1:1"), r.err());
  }
}
