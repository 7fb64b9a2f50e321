package org.coalition.cli;

import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;

/**
 * What a command that runs until stopped ({@code demo}, {@code trial}) made on this machine,
 * undone once: when the command returns, or when the JVM stops on Ctrl-C or SIGTERM, whichever
 * comes first. It is registered before the command makes anything, so a stop at any moment
 * leaves no key, token or process behind; things are undone last made first (the sites, then
 * their ZooKeeper server, then the folder that held their keys).
 */
final class ExitTidy implements AutoCloseable {
  private final Deque<AutoCloseable> undo = new ArrayDeque<>();
  private final List<AutoCloseable> folders = new CopyOnWriteArrayList<>();
  private final AtomicBoolean done = new AtomicBoolean();
  /** Set as the JVM's stop begins, before the hook waits for anything. */
  private volatile boolean stopping;
  /** Down once the command's own thread has closed this: it makes nothing more. */
  private final CountDownLatch returned = new CountDownLatch(1);
  private final Thread hook;
  /** What the JVM's stop waits for before undoing (the daemon a trial runs, closing in order), if anything. */
  private volatile CountDownLatch first = new CountDownLatch(0);

  private ExitTidy(String name) {
    hook = new Thread(() -> {
      stopping = true;
      try {
        first.await(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      close();
      // the command's thread may have been making a file as the folder went: remove it again once that thread has stopped
      try {
        returned.await(5, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      folders.forEach(ExitTidy::quietly);
    }, name + "-tidy");
    Runtime.getRuntime().addShutdownHook(hook);
  }

  /** A tidy for command {@code name}, undone by the JVM's stop if the command has not closed it. */
  static ExitTidy register(String name) {
    return new ExitTidy(name);
  }

  /** {@code thing}, closed at the end (before what was added earlier). */
  synchronized <T extends AutoCloseable> T add(T thing) {
    undo.push(thing);
    return thing;
  }

  /** Removes {@code dir} and all in it at the end, but {@code keep} (a file in it the command names, its decision log). */
  void removeFolder(Path dir, Optional<Path> keep) {
    AutoCloseable remove = () -> {
      // a file that goes while the folder is walked (a ZooKeeper server still rolling its log as the JVM stops) made the
      // whole walk throw, and the folder stayed whole (TrialIT, once in CI): walk again until nothing is left to remove
      for (int attempt = 0; attempt < 5 && Files.exists(dir); attempt++) {
        try (Stream<Path> files = Files.walk(dir)) {
          files.sorted(Comparator.reverseOrder()).filter(p -> keep.map(k -> !k.startsWith(p) && !p.startsWith(k)).orElse(true))
              .forEach(p -> p.toFile().delete());
          return;
        } catch (UncheckedIOException e) {
          // something went under the walk: the next walk sees what is left
        }
      }
    };
    folders.add(remove);
    add(remove);
  }

  /** Whether the command was stopped (Ctrl-C, SIGTERM) or the undoing has begun: it should start nothing more. */
  boolean closing() {
    return stopping || done.get();
  }

  /** A JVM stop undoes things only once {@code latch} is down (or 30 s have passed). */
  void after(CountDownLatch latch) {
    first = latch;
  }

  /** Undoes everything now, once; quietly: a stop prints no error, and what cannot be undone was already gone. */
  @Override
  public void close() {
    if (Thread.currentThread() != hook) {
      returned.countDown();
    }
    if (!done.compareAndSet(false, true)) {
      return;
    }
    AutoCloseable next;
    while ((next = poll()) != null) {
      quietly(next);
    }
    if (Thread.currentThread() != hook) {
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException e) {
        // the JVM is stopping: the hook finds nothing left to do
      }
    }
  }

  private static void quietly(AutoCloseable thing) {
    try {
      thing.close();
    } catch (Exception e) {
      // stopping: what cannot be closed was already gone, and the rest is still undone
    }
  }

  private synchronized AutoCloseable poll() {
    return undo.poll();
  }
}
