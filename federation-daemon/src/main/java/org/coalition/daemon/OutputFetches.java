package org.coalition.daemon;

import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * The home's fetches of remote runs' outputs, off the round's thread (issue #49): a fetch may take
 * minutes (a large output, or an executor that trickles its answer to hold the home), so each runs
 * on a pool of its own and the round takes the ones that have ended. A round waits a moment for
 * the fetches it started ({@link #awaitStarted}), so a small output is replayed in the round that
 * saw its result; it never waits again for a fetch still running. Fetches are keyed by the result's
 * claim token; one whose result is gone (acknowledged, rejected) is forgotten and its files deleted. Its threads are
 * daemons and end when idle ({@link BoundedParallel#daemonPool}), so nothing needs closing.
 */
final class OutputFetches {
  /** The longest a round waits for the fetches it started before it goes on without them. */
  static final Duration ROUND_WAIT = Duration.ofSeconds(2);

  /** How a fetch ended: the output, or what went wrong (a {@link RuntimeException} of {@link OutputFetch}'s kinds). */
  record Outcome(RunOutputs.Captured output, RuntimeException failure) {
    RunOutputs.Captured get() {
      if (failure != null) {
        throw failure;
      }
      return output;
    }
  }

  private final ThreadPoolExecutor pool;
  private final Map<Long, CompletableFuture<Outcome>> running = new ConcurrentHashMap<>();

  /** {@code width}: how many fetches at once; {@code name}: their threads' names' prefix. */
  OutputFetches(String name, int width) {
    pool = BoundedParallel.daemonPool(name, width);
  }

  /** Starts {@code fetch} for the result of claim {@code token}, unless it runs or has ended already; true if started now. */
  boolean start(long token, Supplier<RunOutputs.Captured> fetch) {
    CompletableFuture<Outcome> fresh = new CompletableFuture<>();
    if (running.putIfAbsent(token, fresh) != null) {
      return false;
    }
    pool.execute(() -> {
      Outcome outcome;
      try {
        outcome = new Outcome(fetch.get(), null);
      } catch (RuntimeException e) {
        outcome = new Outcome(null, e);
      }
      fresh.complete(outcome);
      if (running.get(token) != fresh) {
        discard(outcome); // its result went while it ran: nobody takes its files
      }
    });
    return true;
  }

  /** Waits at most {@link #ROUND_WAIT} in all for the fetches of {@code tokens} (those this round started). */
  void awaitStarted(Collection<Long> tokens) {
    long deadline = System.nanoTime() + ROUND_WAIT.toNanos();
    for (long token : tokens) {
      CompletableFuture<Outcome> f = running.get(token);
      long left = deadline - System.nanoTime();
      if (f == null || left <= 0) {
        continue;
      }
      try {
        f.get(left, TimeUnit.NANOSECONDS);
      } catch (TimeoutException | ExecutionException | CompletionException e) {
        // still running (the next rounds take it when it ends), or ended: taken below
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  /** The outcome of the fetch for claim {@code token} if it has ended (and forgets it), else empty. */
  Optional<Outcome> take(long token) {
    CompletableFuture<Outcome> f = running.get(token);
    if (f == null || !f.isDone()) {
      return Optional.empty();
    }
    running.remove(token);
    return Optional.of(f.join());
  }

  /**
   * Forgets the fetches of results no longer waiting (not among {@code current}), deleting the
   * files of those that ended; one still running deletes its own when it ends. (A running fetch is
   * not interrupted: it ends within its own bound.)
   */
  void retain(Set<Long> current) {
    running.entrySet().removeIf(e -> {
      if (current.contains(e.getKey())) {
        return false;
      }
      if (e.getValue().isDone()) {
        discard(e.getValue().join());
      }
      return true;
    });
  }

  private static void discard(Outcome outcome) {
    if (outcome.output() != null) {
      outcome.output().files().ifPresent(OutputFetch::deleteQuietly);
    }
  }

  /** How many fetches run or wait to be taken. */
  int size() {
    return running.size();
  }
}
