package org.coalition.daemon.executor;

/**
 * Wakes the pilots waiting for work when the federation queue changes (the coordination layer's
 * watch calls {@link #changed}): a job published elsewhere reaches an idle pilot in the time of a
 * watch event, not of a round.
 */
final class QueueSignal {
  private long generation;

  /** The queue changed. */
  synchronized void changed() {
    generation++;
    notifyAll();
  }

  /** How many changes there have been: what {@link #await} compares with. */
  synchronized long generation() {
    return generation;
  }

  /** Waits until the queue changes after {@code seen} ({@link #generation}), at most {@code millis}. */
  synchronized void await(long seen, long millis) throws InterruptedException {
    long end = System.nanoTime() + millis * 1_000_000;
    for (long left = millis; generation == seen && left > 0; left = (end - System.nanoTime()) / 1_000_000) {
      wait(left);
    }
  }
}
