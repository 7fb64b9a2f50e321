package org.coalition.coordination;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * Waits for a condition that watches make true soon (a cache catching up with a write). The
 * timeout scales with {@code -Dcoalition.test.timeScale} for slow CI machines; failing after it
 * is a failure, never a retry of the test.
 */
public final class Eventually {
  private static final double SCALE = Double.parseDouble(System.getProperty("coalition.test.timeScale", "1"));

  private Eventually() {}

  public static Duration scaled(Duration d) {
    return Duration.ofMillis((long) (d.toMillis() * SCALE));
  }

  public static void waitFor(String what, BooleanSupplier condition) {
    waitFor(what, Duration.ofSeconds(20), condition);
  }

  public static void waitFor(String what, Duration timeout, BooleanSupplier condition) {
    long deadline = System.nanoTime() + scaled(timeout).toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out after " + scaled(timeout).toMillis() + " ms waiting for: " + what);
      }
      try {
        Thread.sleep(10);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted waiting for: " + what, e);
      }
    }
  }
}
