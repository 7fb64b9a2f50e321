package org.coalition.coordination.zookeeper;

import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.BackgroundCallback;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener.Type;
import org.apache.curator.framework.recipes.watch.PersistentWatcher;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher.Event.EventType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The federation's {@code jobs/} tree as this site needs it, kept by one persistent recursive
 * watch: every job node (its data read and handed to the listener, then not kept), and the claims
 * and results of this site's own jobs with their data; of other homes' claims and results only
 * whether they exist, which is all a site that does not own the job needs (whether to offer it). Curator's {@code CuratorCache} reads every
 * node it is told of; at {@code S} sites a job's three nodes cost {@code 3 S} reads, here
 * {@code S + 2}.
 *
 * <p>Reads go out in the background and their answers come back on ZooKeeper's event thread,
 * in order with the watch's events (the server sends a client a change's event before any read
 * that sees the change), so the copy follows the tree. Whenever the watch is set again (at start,
 * and after a reconnection, when events may have been missed) the tree is listed and every node
 * known or found is read again. Listeners hear of each change as from a {@code CuratorCache}:
 * an existence-only node comes with no data and no stat.
 */
final class JobTree implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(JobTree.class);

  private final CuratorFramework client;
  private final ZkPaths paths;
  private final String site;
  private final CuratorCacheListener listener;
  private final PersistentWatcher watcher;
  private final Map<String, ChildData> nodes = new ConcurrentHashMap<>();
  private final CountDownLatch loaded = new CountDownLatch(1);
  /** Reads of the listing under way; the first listing is done when it comes back to zero. */
  private final AtomicInteger listing = new AtomicInteger();

  /** The tree of {@code paths}, as {@code site} needs it; {@code listener} hears every change. */
  JobTree(CuratorFramework client, ZkPaths paths, String site, CuratorCacheListener listener) {
    this.client = client;
    this.paths = paths;
    this.site = site;
    this.listener = listener;
    this.watcher = new PersistentWatcher(client, paths.jobs(), true);
    watcher.getListenable().addListener(this::onWatch);
    watcher.getResetListenable().addListener(this::list);
  }

  /** Sets the watch and lists the tree; true once the first listing is read, within {@code timeoutSeconds}. */
  boolean start(long timeoutSeconds) throws InterruptedException {
    watcher.start();
    return loaded.await(timeoutSeconds, TimeUnit.SECONDS);
  }

  /** The node at {@code path} as last seen; an existence-only node has no data. */
  Optional<ChildData> get(String path) {
    return Optional.ofNullable(nodes.get(path));
  }

  /** Whether this site reads the node's data: every job, and the claims and results of its own jobs. */
  private boolean readsData(String[] seg) {
    return seg.length == 3 || seg[1].equals(site);
  }

  private void onWatch(WatchedEvent event) {
    String path = event.getPath();
    if (path == null || event.getType() == EventType.None) {
      return;
    }
    String[] seg = kept(path);
    if (seg == null) {
      return;
    }
    switch (event.getType()) {
      case NodeDeleted -> remove(path);
      case NodeCreated, NodeDataChanged -> {
        if (readsData(seg)) {
          read(path, false);
        } else {
          put(new ChildData(path, null, null));
        }
      }
      default -> { } // a recursive watch sends no child events
    }
  }

  /** The path's segments if it is a job, a claim or a result; null otherwise. */
  private String[] kept(String path) {
    String[] seg = paths.relative(path);
    boolean job = seg.length == 3;
    boolean claim = seg.length == 4 && seg[3].equals(ZkPaths.CLAIM);
    boolean result = seg.length == 5 && seg[3].equals(ZkPaths.CLAIM) && seg[4].equals(ZkPaths.RESULT);
    return seg.length > 0 && seg[0].equals("jobs") && (job || claim || result) ? seg : null;
  }

  /** Lists the tree and reads every node found or already known (the watch was just set). */
  private void list() {
    listing.incrementAndGet();
    for (String known : Set.copyOf(nodes.keySet())) {
      read(known, true);
    }
    children(paths.jobs(), (c, e) -> {
      for (String home : e.getChildren()) {
        children(paths.jobs() + "/" + home, (c2, e2) -> {
          for (String job : e2.getChildren()) {
            String jobPath = e2.getPath() + "/" + job;
            for (String path : new String[] {jobPath, jobPath + "/" + ZkPaths.CLAIM, jobPath + "/" + ZkPaths.CLAIM + "/" + ZkPaths.RESULT}) {
              if (!nodes.containsKey(path)) {
                read(path, true);
              }
            }
          }
        });
      }
    });
    done();
  }

  private void children(String path, BackgroundCallback then) {
    listing.incrementAndGet();
    try {
      client.getChildren().inBackground((c, e) -> {
        try {
          if (e.getResultCode() == KeeperException.Code.OK.intValue()) {
            then.processResult(c, e);
          } else if (e.getResultCode() != KeeperException.Code.NONODE.intValue()) {
            LOG.debug("listing {}: {}; listed again when the watch is set again", path, KeeperException.Code.get(e.getResultCode()));
          }
        } finally {
          done();
        }
      }).forPath(path);
    } catch (Exception e) {
      done();
      LOG.warn("could not list {}", path, e);
    }
  }

  /** Reads a node (its data, or only whether it exists), then records what came back. */
  private void read(String path, boolean listed) {
    if (listed) {
      listing.incrementAndGet();
    }
    BackgroundCallback callback = (c, e) -> {
      try {
        answered(path, e);
      } finally {
        if (listed) {
          done();
        }
      }
    };
    try {
      if (readsData(kept(path))) {
        client.getData().inBackground(callback).forPath(path);
      } else {
        client.checkExists().inBackground(callback).forPath(path);
      }
    } catch (Exception e) {
      if (listed) {
        done();
      }
      LOG.warn("could not read {}", path, e);
    }
  }

  private void answered(String path, CuratorEvent e) {
    int code = e.getResultCode();
    if (code == KeeperException.Code.OK.intValue()) {
      put(new ChildData(path, e.getData() == null ? null : e.getStat(), e.getData()));
    } else if (code == KeeperException.Code.NONODE.intValue()) {
      remove(path);
    } else {
      LOG.debug("reading {}: {}; read again when the watch is set again", path, KeeperException.Code.get(code));
    }
  }

  private void done() {
    if (listing.decrementAndGet() == 0) {
      loaded.countDown();
    }
  }

  /**
   * Records {@code node} and tells the listener, which gets its data. A job's data is not kept:
   * the view keeps the job it parsed, and a member's jobs it refused (as many as it makes, up to
   * ZooKeeper's 1 MiB each) cost this daemon nothing after their one reading (issue #49: 60 of
   * them held 54 MB in every honest daemon). Claims' and results' data is kept (their reads need
   * it), and only for this site's own jobs.
   */
  private void put(ChildData node) {
    ChildData kept = node.getData() != null && paths.relative(node.getPath()).length == 3 ? new ChildData(node.getPath(), node.getStat(), null)
        : node;
    ChildData before = nodes.put(node.getPath(), kept);
    if (before == null) {
      listener.event(Type.NODE_CREATED, null, node);
    } else if (node.getStat() != null && (before.getStat() == null || before.getStat().getMzxid() != node.getStat().getMzxid())) {
      listener.event(Type.NODE_CHANGED, before, node); // not for a node read again unchanged, nor one only known to exist
    }
  }

  private void remove(String path) {
    ChildData before = nodes.remove(path);
    if (before != null) {
      listener.event(Type.NODE_DELETED, before, null);
    }
  }

  @Override
  public void close() {
    watcher.close();
  }
}
