package org.coalition.testbed;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Waits for a condition that becomes true soon (a cache catching up with a write, a batch job
 * reaching a state). The timeout scales with {@code -Dcoalition.test.timeScale} for slow CI machines; failing after it
 * is a failure, never a retry of the test.
 */
public final class Eventually {
  private static final long MAX_PAUSE_MILLIS = 250;
  private static final double SCALE = Double.parseDouble(System.getProperty("coalition.test.timeScale", "1"));

  private Eventually() {}

  public static Duration scaled(Duration d) {
    return Duration.ofMillis((long) (d.toMillis() * SCALE));
  }

  public static void waitFor(String what, BooleanSupplier condition) {
    waitFor(what, Duration.ofSeconds(20), condition);
  }

  /**
   * Checks {@code condition} first after 10 ms, then less and less often, at most every 250 ms: a
   * condition met at once is seen at once, and a long wait does not ask a batch system or an
   * engine a hundred times a second on a two-core machine that also runs what is waited for.
   */
  public static void waitFor(String what, Duration timeout, BooleanSupplier condition) {
    await(() -> what, timeout, 10, MAX_PAUSE_MILLIS, condition);
  }

  /**
   * Checks {@code condition} every {@code every} (a batch system's server is not to be asked in a
   * busy loop); on timeout the failure says {@code what}, read then (it may name the last state seen).
   */
  public static void waitFor(Supplier<String> what, Duration timeout, Duration every, BooleanSupplier condition) {
    await(what, timeout, every.toMillis(), every.toMillis(), condition);
  }

  /** Checks {@code condition} after {@code firstPause} ms, each pause twice the last, at most {@code maxPause} ms, until it holds or {@code timeout} passes. */
  private static void await(Supplier<String> what, Duration timeout, long firstPause, long maxPause, BooleanSupplier condition) {
    long deadline = System.nanoTime() + scaled(timeout).toNanos();
    long pause = firstPause;
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out after " + scaled(timeout).toMillis() + " ms waiting for: " + what.get());
      }
      try {
        Thread.sleep(pause);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted waiting for: " + what.get(), e);
      }
      pause = Math.min(maxPause, pause * 2);
    }
  }
}
