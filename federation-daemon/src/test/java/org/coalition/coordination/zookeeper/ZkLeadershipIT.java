package org.coalition.coordination.zookeeper;

import static org.coalition.testbed.Eventually.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.coalition.coordination.SiteInfo;
import org.coalition.coordination.SiteStatus;
import org.coalition.periodic.BalancingPeriod;
import org.coalition.periodic.PeriodicScheduler;
import org.coalition.testbed.zookeeper.Ensemble;
import org.junit.jupiter.api.Test;

/**
 * The leader runs the BILB period on a Quartz trigger against real ZooKeeper; a short
 * disconnect (SUSPENDED) keeps the leader, a lost session moves leadership.
 */
class ZkLeadershipIT {
  @Test
  void theLeaderPublishesEveryPeriodAndKeepsLeadershipThroughASuspension() throws Exception {
    try (Ensemble server = Ensemble.start(1)) {
      ZkTestFederation fed = new ZkTestFederation(server, Clock.systemUTC(), List.of("a", "b"));
      try (ZkCoordination a = fed.connect("a", Duration.ofSeconds(20));
          ZkCoordination b = fed.connect("b", Duration.ofSeconds(20))) {
        a.join(new SiteInfo("a", "", 10), new SiteStatus("a", 10, 5000, 2, 1.0, 3000));
        b.join(new SiteInfo("b", "", 10), new SiteStatus("b", 10, 0, 0, 0.0, 3000));
        PeriodicScheduler pa = new PeriodicScheduler("a", Duration.ofMillis(200), new BalancingPeriod(a));
        PeriodicScheduler pb = new PeriodicScheduler("b", Duration.ofMillis(200), new BalancingPeriod(b));
        try {
          waitFor("a leader publishes", () -> b.allowances().period() >= 3);
          ZkCoordination leader = a.isLeader() ? a : b;
          ZkCoordination follower = leader == a ? b : a;
          assertEquals(leader.site(), follower.allowances().leader());
          assertEquals(2500, follower.allowances().of("a").send(), 1e-9, "BILB moves a's excess to b up to the mean");

          long beforePause = follower.allowances().period();
          // Leadership is sampled every 10 ms through the pause: a latch that gave it up on SUSPENDED
          // and took it back after the reconnection would look the same at the end.
          AtomicInteger lostSamples = new AtomicInteger();
          AtomicInteger samples = new AtomicInteger();
          ScheduledExecutorService watch = Executors.newSingleThreadScheduledExecutor();
          watch.scheduleAtFixedRate(() -> {
            samples.incrementAndGet();
            if (!leader.isLeader()) {
              lostSamples.incrementAndGet();
            }
          }, 0, 10, TimeUnit.MILLISECONDS);
          server.restartAll(Duration.ofSeconds(2)); // both clients go SUSPENDED; their sessions (20 s) outlive the pause
          waitFor("periods go on after the pause", () -> {
            try {
              return follower.allowances().period() > beforePause && leader.isLeader();
            } catch (RuntimeException e) {
              return false;
            }
          });
          watch.shutdownNow();
          long before = follower.allowances().period();
          assertTrue(samples.get() > 100, "leadership sampled through the pause: " + samples.get() + " samples");
          assertEquals(0, lostSamples.get(), "SUSPENDED is not LOST: the leader kept leadership all through the pause ("
              + lostSamples.get() + " of " + samples.get() + " samples without it)");
          waitFor("the same leader publishes newer periods", () -> follower.allowances().period() > before + 2
              && follower.allowances().leader().equals(leader.site()));

          ZkCoordination.Session session = leader.session();
          server.expireSession(session.id(), session.password());
          waitFor("leadership moves when the session is lost", () -> {
            try {
              return follower.isLeader() && follower.allowances().leader().equals(follower.site());
            } catch (RuntimeException e) {
              return false;
            }
          });
          System.out.printf("[coordination] leader %s kept leadership through a 2 s server pause; after its session expired %s took over%n",
              leader.site(), follower.site());
        } finally {
          pa.close();
          pb.close();
        }
      }
    }
  }
}
