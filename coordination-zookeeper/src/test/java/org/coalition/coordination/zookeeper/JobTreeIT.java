package org.coalition.coordination.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.Watcher.WatcherType;
import org.apache.zookeeper.ZooKeeper;
import org.coalition.coordination.Claim;
import org.coalition.coordination.JobRef;
import org.coalition.coordination.JobSpec;
import org.coalition.coordination.RunResult;
import org.coalition.coordination.SiteInfo;
import org.coalition.coordination.SiteStatus;
import org.coalition.testbed.Eventually;
import org.coalition.testbed.zookeeper.Ensemble;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The job tree against a real server: what a site reads of whose nodes, and that events missed
 * while the watch was gone are made good when it is set again.
 */
class JobTreeIT {
  private static final Duration WAIT = Duration.ofSeconds(30);
  private static Ensemble server;

  @BeforeAll
  static void startServer() throws Exception {
    server = SharedServer.get();
  }

  @Test
  void everySiteReadsEveryJobButOnlyTheHomeReadsItsClaimsAndResults() throws Exception {
    ZkTestFederation fed = new ZkTestFederation(server, Clock.systemUTC(), List.of("north", "south", "west"));
    try (ZkCoordination north = joined(fed, "north"); ZkCoordination south = joined(fed, "south");
        CuratorFramework northClient = client(fed, "north"); CuratorFramework westClient = client(fed, "west");
        JobTree atHome = tree(fed, northClient, "north"); JobTree elsewhere = tree(fed, westClient, "west")) {
      north.publish(List.of(job("j1")));
      Eventually.waitFor(() -> "south sees j1", WAIT, Duration.ofMillis(50), () -> !south.queue().isEmpty());
      Claim claim = south.claim(new JobRef("north", "j1")).orElseThrow();
      south.start(claim, 1);
      south.finish(claim, RunResult.builder(1, 2).build());
      ZkPaths paths = new ZkPaths(fed.name);
      JobRef ref = new JobRef("north", "j1");
      for (JobTree tree : List.of(atHome, elsewhere)) {
        Eventually.waitFor(() -> "the result in the tree", WAIT, Duration.ofMillis(50), () -> tree.get(paths.result(ref)).isPresent());
        assertNotNull(HEARD.get(tree).get(paths.job(ref)), "every site reads a job and hands it to its listener");
        assertNotNull(tree.get(paths.job(ref)).orElseThrow().getStat(), "the tree keeps the job's stat");
        assertNull(tree.get(paths.job(ref)).orElseThrow().getData(), "and not its data: the view keeps the job it parsed (issue #49)");
      }
      assertNotNull(atHome.get(paths.claim(ref)).orElseThrow().getData(), "the home reads its job's claim");
      assertNotNull(atHome.get(paths.result(ref)).orElseThrow().getStat(), "the home reads its job's result");
      assertNull(elsewhere.get(paths.claim(ref)).orElseThrow().getData(), "another site only knows the claim exists");
      assertNull(elsewhere.get(paths.result(ref)).orElseThrow().getData(), "another site only knows the result exists");
      // north's own view is a third watcher of the same tree: it hears the result in its own time
      Eventually.waitFor(() -> "north's view hears the result", WAIT, Duration.ofMillis(50), () -> !north.results().isEmpty());
      assertEquals(1, north.results().size(), "the home still reads the result through its view");
      assertEquals(List.of(true), north.jobs("north").stream().map(f -> f.finished() && f.executor().equals("south")).toList());
      assertEquals("south", south.jobs("north").get(0).executor(), "another site asking about a home's jobs has the claim read for it");
    }
  }

  @Test
  void changesMissedWhileTheWatchWasGoneAreFoundWhenItIsSetAgain() throws Exception {
    ZkTestFederation fed = new ZkTestFederation(server, Clock.systemUTC(), List.of("north", "south"));
    List<String> heard = new CopyOnWriteArrayList<>();
    try (ZkCoordination north = joined(fed, "north"); CuratorFramework southClient = client(fed, "south")) {
      ZkPaths paths = new ZkPaths(fed.name);
      north.publish(List.of(job("kept"), job("withdrawn")));
      try (JobTree tree = new JobTree(southClient, paths, "south", (type, before, after) -> heard.add(type + " " + (after != null ? after
          : before).getPath()))) {
        assertTrue(tree.start(30), "the first listing is read");
        assertTrue(tree.get(paths.job(new JobRef("north", "withdrawn"))).isPresent());
        ZooKeeper raw = southClient.getZookeeperClient().getZooKeeper();
        raw.removeAllWatches(paths.jobs(), WatcherType.Any, false); // from now on the tree hears nothing
        north.publish(List.of(job("added")));
        assertTrue(north.withdraw("withdrawn"));
        Thread.sleep(500);
        assertTrue(tree.get(paths.job(new JobRef("north", "added"))).isEmpty(), "the watch is gone: the new job is not seen yet");
        server.expireSession(raw.getSessionId(), raw.getSessionPasswd()); // a new session sets the watch again
        Eventually.waitFor(() -> "the tree finds the job added meanwhile; heard " + heard, WAIT, Duration.ofMillis(50),
            () -> tree.get(paths.job(new JobRef("north", "added"))).isPresent());
        Eventually.waitFor(() -> "the tree drops the job withdrawn meanwhile; heard " + heard, WAIT, Duration.ofMillis(50),
            () -> tree.get(paths.job(new JobRef("north", "withdrawn"))).isEmpty());
        Optional<ChildData> kept = tree.get(paths.job(new JobRef("north", "kept")));
        assertTrue(kept.isPresent(), "a job untouched stays");
        assertEquals(1, heard.stream().filter(h -> h.endsWith("/kept")).count(), "a job read again unchanged is not news: " + heard);
      }
    }
  }

  private static ZkCoordination joined(ZkTestFederation fed, String site) {
    ZkCoordination c = fed.connect(site);
    c.join(new SiteInfo(site, "https://" + site + ".example:8443", 8), new SiteStatus(site, 8, 0, 0, 0, 100));
    return c;
  }

  private static CuratorFramework client(ZkTestFederation fed, String site) throws InterruptedException {
    CuratorFramework c = fed.tls(site).curator(fed.connectString).retryPolicy(new ExponentialBackoffRetry(100, 10)).build();
    c.start();
    assertTrue(c.blockUntilConnected(30, TimeUnit.SECONDS), "connected");
    return c;
  }

  /** The data each tree's listener was handed, by tree and path. */
  private static final Map<JobTree, Map<String, byte[]>> HEARD = new ConcurrentHashMap<>();

  private static JobTree tree(ZkTestFederation fed, CuratorFramework client, String site) throws InterruptedException {
    Map<String, byte[]> heard = new ConcurrentHashMap<>();
    JobTree tree = new JobTree(client, new ZkPaths(fed.name), site, (type, before, after) -> {
      if (after != null && after.getData() != null) {
        heard.put(after.getPath(), after.getData());
      }
    });
    HEARD.put(tree, heard);
    assertTrue(tree.start(30), "the first listing is read");
    return tree;
  }

  private static JobSpec job(String id) {
    return JobSpec.builder(id, "north").cores(1).walltimeSeconds(60).release(1).build();
  }
}
