package org.coalition.bench;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.KeeperException;
import org.coalition.coordination.zookeeper.ZkTls;

/**
 * The ensemble's plain write rate, the yardstick for the lifecycle rate: as many clients and
 * threads as the benchmark's daemons and workers, each creating small persistent nodes one at a
 * time (synchronously, as the lifecycle's writes are), for a fixed time.
 */
final class RawWrites {
  private RawWrites() {}

  /** Measures with {@code clients} connections over TLS as {@code tls}'s identity, as the daemons connect. */
  static double measure(String connectString, String run, ZkTls tls, int clients, int threadsPerClient, Duration duration) throws Exception {
    List<CuratorFramework> curators = new ArrayList<>();
    try {
      for (int c = 0; c < clients; c++) {
        CuratorFramework client = tls.curator(connectString).retryPolicy(new ExponentialBackoffRetry(100, 5)).build();
        client.start();
        client.blockUntilConnected();
        curators.add(client);
      }
      try {
        curators.get(0).create().forPath("/bench-raw");
      } catch (KeeperException.NodeExistsException e) {
        // an earlier measurement in this ensemble
      }
      AtomicLong writes = new AtomicLong();
      long end = System.nanoTime() + duration.toNanos();
      byte[] data = "{\"raw\":true}".getBytes(StandardCharsets.UTF_8);
      List<Thread> threads = new ArrayList<>();
      long t0 = System.nanoTime();
      for (int c = 0; c < clients; c++) {
        CuratorFramework client = curators.get(c);
        for (int t = 0; t < threadsPerClient; t++) {
          String prefix = "/bench-raw/" + run + "-c" + c + "-t" + t + "-";
          Thread thread = new Thread(() -> {
            int n = 0;
            while (System.nanoTime() < end) {
              try {
                client.create().forPath(prefix + n++, data);
                writes.incrementAndGet();
              } catch (Exception e) {
                return;
              }
            }
          }, "raw-writes-" + c + "-" + t);
          threads.add(thread);
          thread.start();
        }
      }
      for (Thread t : threads) {
        t.join();
      }
      return writes.get() / ((System.nanoTime() - t0) / 1e9);
    } finally {
      curators.forEach(CuratorFramework::close);
    }
  }
}
