package org.coalition.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.coalition.coordination.zookeeper.MemberQuota;
import org.coalition.coordination.zookeeper.ZkCoordination;
import org.coalition.coordination.zookeeper.ZkFederation;
import org.coalition.coordination.zookeeper.ZkTls;
import org.coalition.daemon.base.BrokerSettings;
import org.coalition.daemon.outputs.RunOutputs;
import org.coalition.handler.ScriptRunner;
import org.coalition.local.LocalSite;
import org.coalition.periodic.BalancingPeriod;
import org.coalition.testbed.Eventually;
import org.coalition.testbed.zookeeper.Ensemble;
import org.coalition.zookeeper.policy.Identity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Benchmark, not a timing test: the heap a daemon needs to track 10,000 of its site's jobs in the
 * federation. ZooKeeper runs in a child process, so this JVM holds the daemons alone: the home
 * site, whose broker parks and publishes 10,000 jobs, and a busy second site that only keeps the
 * federation's queue in its cache. Prints the figures; asserts only that every job was tracked.
 */
class DaemonMemoryIT {
  private static final int JOBS = 10_000;

  @TempDir Path tmp;

  @Test
  void heapOfADaemonTracking10000Jobs() throws Exception {
    Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwx--x--x"));
    Path scratch = Files.createDirectories(tmp.resolve("scratch"));
    Files.setPosixFilePermissions(scratch, PosixFilePermissions.fromString("rwx--x--x"));
    // the server in a process of its own, so its heap is not counted as the daemons'
    Ensemble zk = Ensemble.start(1);
    String connect = zk.connectString();
    List<AutoCloseable> open = new ArrayList<>();
    try {
      // a quota that lets one home publish all its jobs at once (the default stops it at 3,333): what an operator sets for such a site
      MemberQuota room = new MemberQuota(3L * JOBS + 1 + 1_000, 128L << 20);
      ZkFederation.bootstrap(connect, tls(zk, Identity.operator("mem")), List.of("home", "busy"), room, Clock.systemUTC());
      ScriptRunner runner = new ScriptRunner(scratch);
      Site home = site(tls(zk, new Identity("mem", "home")), connect, runner, open);
      Site busy = site(tls(zk, new Identity("mem", "busy")), connect, runner, open);
      home.local.submit(LocalFederation.ME, 1, 3600, "sleep 600\n");
      busy.local.submit(LocalFederation.ME, 1, 3600, "sleep 600\n");
      home.broker.start();
      busy.broker.start();
      Eventually.waitFor("both sites run their long job", Duration.ofSeconds(30),
          () -> home.local.jobs().get(0).start() > 0 && busy.local.jobs().get(0).start() > 0);
      long baseline = heapAfterGc();
      long rssBefore = rssKb();
      for (int i = 0; i < JOBS; i++) {
        home.local.submit(LocalFederation.ME, 1, 600, "echo job " + i + "\n");
      }
      long started = System.nanoTime();
      Eventually.waitFor(() -> "all " + JOBS + " jobs published; " + home.coordination.jobs("home").size() + " so far", Duration.ofMinutes(5),
          Duration.ofMillis(100), () -> {
            home.period.run();
            busy.period.run();
            home.broker.tick();
            busy.broker.tick();
            return home.coordination.jobs("home").size() == JOBS;
          });
      double seconds = (System.nanoTime() - started) / 1e9;
      assertEquals(JOBS, home.coordination.jobs("home").size());
      long tracked = heapAfterGc();
      System.out.printf("[memory] %d jobs parked and published in %.1f s (%.0f jobs/s); heap after GC: %.1f MB before, %.1f MB with them"
          + " tracked (+%.1f MB, %.0f bytes per job, both daemons of this JVM: the home's broker and ZooKeeper cache, the busy site's"
          + " cache of the queue); RSS %d MB -> %d MB%n", JOBS, seconds, JOBS / seconds, baseline / 1e6, tracked / 1e6,
          (tracked - baseline) / 1e6, (double) (tracked - baseline) / JOBS, rssBefore / 1024, rssKb() / 1024);
    } finally {
      for (int i = open.size() - 1; i >= 0; i--) {
        open.get(i).close();
      }
      zk.close();
    }
  }

  private static ZkTls tls(Ensemble zk, Identity who) {
    return new ZkTls(zk.identity(who), zk.trustStore());
  }

  private record Site(LocalSite local, Broker broker, ZkCoordination coordination, BalancingPeriod period) {}

  private static Site site(ZkTls tls, String connect, ScriptRunner runner, List<AutoCloseable> open) throws Exception {
    String name = tls.who().name();
    ZkCoordination c = ZkFederation.connect(connect, tls, Clock.systemUTC(), ZkFederation.Options.DEFAULT);
    open.add(c);
    LocalSite local = new LocalSite(name, 1, runner, c::now);
    open.add(local);
    BrokerSettings settings = LocalFederation.settings(name).participation(1e12).pilotPendingLimit(Duration.ofMinutes(10))
        .heartbeat(Duration.ofSeconds(30)).build();
    Broker broker = new Broker(settings, c, local, Optional.of(local), new RunOutputs(Files.createTempDirectory("outputs")));
    return new Site(local, broker, c, new BalancingPeriod(c));
  }

  private static long heapAfterGc() throws InterruptedException {
    for (int i = 0; i < 3; i++) {
      System.gc();
      Thread.sleep(200);
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  private static long rssKb() throws IOException {
    return Files.readAllLines(Path.of("/proc/self/status")).stream().filter(l -> l.startsWith("VmRSS:"))
        .map(l -> Long.parseLong(l.replaceAll("[^0-9]", ""))).findFirst().orElse(-1L);
  }
}
