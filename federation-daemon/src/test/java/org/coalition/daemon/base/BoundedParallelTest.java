package org.coalition.daemon.base;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Tasks at most so many at once, all run before it returns, on the caller's thread at width 1. */
class BoundedParallelTest {
  @Test
  void runsEveryTaskAtMostWidthAtOnceAndReturnsWhenAllHaveRun() {
    AtomicInteger now = new AtomicInteger();
    AtomicInteger most = new AtomicInteger();
    Set<Integer> ran = ConcurrentHashMap.newKeySet();
    new BoundedParallel("test", 3).forEach(List.of(1, 2, 3, 4, 5, 6, 7, 8, 9, 10), i -> {
      most.accumulateAndGet(now.incrementAndGet(), Math::max);
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      ran.add(i);
      now.decrementAndGet();
    });
    assertEquals(10, ran.size(), "all ran before it returned");
    assertTrue(most.get() <= 3, "at most three at once, saw " + most.get());
    assertTrue(most.get() > 1, "some at once, saw " + most.get());
  }

  @Test
  void aWidthOfOneRunsInOrderOnTheCallersThread() {
    Set<Thread> threads = ConcurrentHashMap.newKeySet();
    StringBuilder order = new StringBuilder();
    new BoundedParallel("test", 1).forEach(List.of("a", "b", "c"), s -> {
      threads.add(Thread.currentThread());
      order.append(s);
    });
    assertEquals(Set.of(Thread.currentThread()), threads);
    assertEquals("abc", order.toString());
  }

  @Test
  void aTaskThatThrowsIsThrownOnceAllHaveRun() {
    Set<Integer> ran = ConcurrentHashMap.newKeySet();
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> new BoundedParallel("test", 2).forEach(List.of(1, 2, 3, 4), i -> {
      ran.add(i);
      if (i == 1) {
        throw new IllegalStateException("task 1");
      }
    }));
    assertEquals("task 1", e.getMessage());
    assertEquals(Set.of(1, 2, 3, 4), ran);
  }
}
