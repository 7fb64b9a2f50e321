package org.coalition.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The home's fetches off the round's thread: taken once ended, and no file left by a result that went meanwhile. */
class OutputFetchesTest {
  @TempDir Path tmp;

  private final OutputFetches fetches = new OutputFetches("test", 2);

  private RunOutputs.Captured withFile(Path file) throws Exception {
    Files.writeString(file, "tar");
    return new RunOutputs.Captured(new byte[0], new byte[0], Optional.of(file), List.of());
  }

  @Test
  void aFetchIsStartedOnceAndTakenOnceItEnded() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    assertTrue(fetches.start(1, () -> {
      await(release);
      return new RunOutputs.Captured("out".getBytes(), new byte[0]);
    }));
    assertFalse(fetches.start(1, () -> new RunOutputs.Captured(new byte[0], new byte[0])), "one fetch per result");
    assertTrue(fetches.take(1).isEmpty(), "still running: not taken");
    release.countDown();
    fetches.awaitStarted(List.of(1L));
    assertEquals("out", new String(fetches.take(1).orElseThrow().get().stdout()));
    assertEquals(0, fetches.size(), "taken once");
  }

  @Test
  void theFilesOfAFetchWhoseResultWentAreDeletedWhetherItHadEndedOrNot() throws Exception {
    Path ended = tmp.resolve("ended.tar");
    Path running = tmp.resolve("running.tar");
    CountDownLatch release = new CountDownLatch(1);
    fetches.start(1, () -> uncheckedWithFile(ended));
    fetches.awaitStarted(List.of(1L));
    CountDownLatch made = new CountDownLatch(1);
    fetches.start(2, () -> {
      await(release);
      RunOutputs.Captured got = uncheckedWithFile(running);
      made.countDown();
      return got;
    });
    fetches.retain(Set.of()); // both results went (acknowledged or rejected elsewhere)
    assertFalse(Files.exists(ended), "an ended fetch's files go with it");
    release.countDown();
    assertTrue(made.await(10, TimeUnit.SECONDS), "the running fetch made its files");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (Files.exists(running) && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertFalse(Files.exists(running), "a running fetch deletes its own files when it ends");
    assertEquals(0, fetches.size());
  }

  private RunOutputs.Captured uncheckedWithFile(Path file) {
    try {
      return withFile(file);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
