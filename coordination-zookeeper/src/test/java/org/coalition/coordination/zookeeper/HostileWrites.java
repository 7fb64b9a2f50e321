package org.coalition.coordination.zookeeper;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.apache.zookeeper.KeeperException;
import org.coalition.coordination.SiteInfo;
import org.coalition.coordination.SiteStatus;

/** What the tests of a hostile member share: a record's worth of junk, a site announced, and a write the servers must refuse. */
final class HostileWrites {
  static final byte[] JUNK = "{\"forged\":true}".getBytes(StandardCharsets.UTF_8);

  private HostileWrites() {}

  /** Announces {@code c}'s site: 8 cores, an empty queue. */
  static void join(ZkCoordination c) {
    c.join(new SiteInfo(c.site(), "", 8), new SiteStatus(c.site(), 8, 0, 0, 0, 100));
  }

  /** {@code write} fails with NoAuth: the servers refused it. */
  static void assertNoAuth(String attempt, Write write) {
    Exception e = assertThrows(Exception.class, write::run, "it could " + attempt);
    assertTrue(e instanceof KeeperException.NoAuthException, attempt + ": expected NoAuth, got " + e);
  }

  /** A write a hostile client tries. */
  @FunctionalInterface
  interface Write {
    void run() throws Exception;
  }
}
