package org.coalition.daemon.outputs;

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

  private final OutputFetches fetches = new OutputFetches("test", 4);

  private CapturedOutput withFile(Path file) throws Exception {
    Files.writeString(file, "tar");
    return new CapturedOutput(new byte[0], new byte[0], Optional.of(file), List.of());
  }

  @Test
  void aFetchIsStartedOnceAndTakenOnceItEnded() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    assertTrue(fetches.start(1, "west", () -> {
      await(release);
      return new CapturedOutput("out".getBytes(), new byte[0]);
    }));
    assertFalse(fetches.start(1, "west", () -> new CapturedOutput(new byte[0], new byte[0])), "one fetch per result");
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
    fetches.start(1, "west", () -> uncheckedWithFile(ended));
    fetches.awaitStarted(List.of(1L));
    CountDownLatch made = new CountDownLatch(1);
    fetches.start(2, "west", () -> {
      await(release);
      CapturedOutput got = uncheckedWithFile(running);
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

  /**
   * Issue #49, attack 2: an executor whose outputs trickle holds two fetches at once, never the pool;
   * another executor's result is fetched beside them, and the trickler's third waits for a later
   * round, even after it withdraws the results whose fetches still run.
   */
  @Test
  void oneExecutorHoldsTwoFetchesAtMostAndAnotherIsFetchedBesideThem() throws Exception {
    CountDownLatch trickle = new CountDownLatch(1);
    for (long token = 1; token <= 2; token++) {
      assertTrue(fetches.start(token, "mallory", () -> {
        await(trickle);
        return new CapturedOutput(new byte[0], new byte[0]);
      }));
    }
    assertFalse(fetches.start(3, "mallory", () -> new CapturedOutput(new byte[0], new byte[0])), "mallory's third waits");
    assertTrue(fetches.start(4, "west", () -> new CapturedOutput("west".getBytes(), new byte[0])), "west's starts beside them");
    fetches.awaitStarted(List.of(4L));
    assertEquals("west", new String(fetches.take(4).orElseThrow().get().stdout()), "west's fetch ended while mallory's trickle");
    fetches.retain(Set.of(3L)); // mallory withdrew the two results being fetched
    assertFalse(fetches.start(3, "mallory", () -> new CapturedOutput(new byte[0], new byte[0])),
        "the withdrawn results' fetches still run, and still count");
    trickle.countDown();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    boolean started = false;
    while (!started && System.nanoTime() < deadline) {
      fetches.retain(Set.of(3L));
      started = fetches.start(3, "mallory", () -> new CapturedOutput(new byte[0], new byte[0]));
      Thread.sleep(10);
    }
    assertTrue(started, "once they ended, mallory's third is fetched");
  }

  private CapturedOutput uncheckedWithFile(Path file) {
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
