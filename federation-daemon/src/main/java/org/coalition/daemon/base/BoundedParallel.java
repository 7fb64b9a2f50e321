package org.coalition.daemon.base;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Runs one task per item, at most {@code width} at once, and returns when all have run: the
 * home queue's calls about different jobs (script reads, notes, replays), which wait on the batch
 * system more than on this host. A width of 1 runs them in order on the caller's thread. Its threads are daemons and end after
 * {@link #IDLE_SECONDS} without work, so nothing needs closing. Each task contains its own
 * failures; one that throws anyway is thrown here once all have run.
 */
public final class BoundedParallel {
  static final long IDLE_SECONDS = 30;

  private final ThreadPoolExecutor pool;

  /** {@code name}: its threads' names' prefix ({@code home-north} makes {@code home-north-1}, ...); {@code width}: how many at once (1: none of its own). */
  public BoundedParallel(String name, int width) {
    if (width < 1) {
      throw new IllegalArgumentException(name + ": width must be at least 1, was " + width);
    }
    if (width == 1) {
      pool = null;
      return;
    }
    pool = daemonPool(name, width);
  }

  /**
   * A pool of at most {@code width} daemon threads named {@code name-1}, {@code name-2}, ..., each
   * ending after {@link #IDLE_SECONDS} without work, so that nothing needs closing; tasks beyond
   * the width wait in line.
   */
  public static ThreadPoolExecutor daemonPool(String name, int width) {
    AtomicInteger count = new AtomicInteger();
    ThreadPoolExecutor pool = new ThreadPoolExecutor(width, width, IDLE_SECONDS, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
      Thread t = new Thread(r, name + "-" + count.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
    pool.allowCoreThreadTimeOut(true);
    return pool;
  }

  public <T> void forEach(Collection<T> items, Consumer<T> task) {
    if (pool == null || items.size() <= 1) {
      items.forEach(task);
      return;
    }
    List<Future<?>> running = new ArrayList<>();
    for (T item : items) {
      running.add(pool.submit(() -> task.accept(item)));
    }
    RuntimeException failed = null;
    for (Future<?> f : running) {
      try {
        f.get();
      } catch (InterruptedException e) {
        running.forEach(r -> r.cancel(true));
        Thread.currentThread().interrupt();
        return;
      } catch (ExecutionException e) {
        if (e.getCause() instanceof Error error) {
          throw error;
        }
        failed = failed != null ? failed : e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
      }
    }
    if (failed != null) {
      throw failed;
    }
  }
}
