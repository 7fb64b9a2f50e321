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
  private static final double SCALE = Double.parseDouble(System.getProperty("coalition.test.timeScale", "1"));

  private Eventually() {}

  public static Duration scaled(Duration d) {
    return Duration.ofMillis((long) (d.toMillis() * SCALE));
  }

  public static void waitFor(String what, BooleanSupplier condition) {
    waitFor(what, Duration.ofSeconds(20), condition);
  }

  public static void waitFor(String what, Duration timeout, BooleanSupplier condition) {
    waitFor(() -> what, timeout, Duration.ofMillis(10), condition);
  }

  /**
   * Checks {@code condition} every {@code every} (a batch system's server is not to be asked in a
   * busy loop); on timeout the failure says {@code what}, read then (it may name the last state seen).
   */
  public static void waitFor(Supplier<String> what, Duration timeout, Duration every, BooleanSupplier condition) {
    long deadline = System.nanoTime() + scaled(timeout).toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out after " + scaled(timeout).toMillis() + " ms waiting for: " + what.get());
      }
      try {
        Thread.sleep(every.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted waiting for: " + what.get(), e);
      }
    }
  }
}
