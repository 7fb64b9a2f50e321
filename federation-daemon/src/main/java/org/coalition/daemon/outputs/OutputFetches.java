package org.coalition.daemon.outputs;

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
import org.coalition.daemon.base.BoundedParallel;

/**
 * The home's fetches of remote runs' outputs, off the round's thread (issue #49): a fetch may take
 * minutes (a large output, or an executor that trickles its answer to hold the home), so each runs
 * on a pool of its own and the round takes the ones that have ended. A round waits a moment for
 * the fetches it started ({@link #awaitStarted}), so a small output is replayed in the round that
 * saw its result; it never waits again for a fetch still running. Fetches are keyed by the result's
 * claim token; one whose result is gone (acknowledged, rejected) is forgotten and its files deleted. Its threads are
 * daemons and end when idle ({@link BoundedParallel#daemonPool}), so nothing needs closing.
 *
 * <p>No executor has more than {@link #PER_EXECUTOR} fetches running at once: the others of its
 * results wait for a later round, so an executor that trickles its outputs (or is merely slow)
 * holds two of the pool's threads, never the pool, and the results of every other executor are
 * fetched beside its own.
 */
public final class OutputFetches {
  /**
   * The longest a round waits for the fetches it started before it goes on without them: half of
   * the daemon's default tick, so that a round that starts a fetch that never ends still ends
   * within two ticks (HostileMemberIT's round budget). A small output from a live executor arrives
   * well within it and is replayed in the round that saw its result.
   */
  public static final Duration ROUND_WAIT = Duration.ofMillis(500);
  /** The most fetches running at once from one executor. */
  static final int PER_EXECUTOR = 2;

  /** How a fetch ended: the output, or what went wrong (a {@link RuntimeException} of {@link OutputFetch}'s kinds). */
  public record Outcome(CapturedOutput output, RuntimeException failure) {
    public CapturedOutput get() {
      if (failure != null) {
        throw failure;
      }
      return output;
    }
  }

  private final ThreadPoolExecutor pool;
  private final Map<Long, CompletableFuture<Outcome>> running = new ConcurrentHashMap<>();
  /** How many fetches from each executor have not ended, whether or not their results are still waiting. */
  private final Map<String, Integer> inFlight = new ConcurrentHashMap<>();

  /** {@code width}: how many fetches at once; {@code name}: their threads' names' prefix. */
  public OutputFetches(String name, int width) {
    pool = BoundedParallel.daemonPool(name, width);
  }

  /**
   * Starts {@code fetch} for the result of claim {@code token}, from {@code executor}, unless it runs
   * or has ended already, or {@link #PER_EXECUTOR} fetches from that executor run now (then a later
   * round starts it); true if started now. Called from the round's thread only.
   */
  public boolean start(long token, String executor, Supplier<CapturedOutput> fetch) {
    if (running.containsKey(token) || inFlight.getOrDefault(executor, 0) >= PER_EXECUTOR) {
      return false;
    }
    CompletableFuture<Outcome> fresh = new CompletableFuture<>();
    running.put(token, fresh);
    inFlight.merge(executor, 1, Integer::sum);
    pool.execute(() -> {
      Outcome outcome;
      try {
        outcome = new Outcome(fetch.get(), null);
      } catch (RuntimeException e) {
        outcome = new Outcome(null, e);
      }
      inFlight.computeIfPresent(executor, (site, n) -> n > 1 ? n - 1 : null);
      fresh.complete(outcome);
      if (running.get(token) != fresh) {
        discard(outcome); // its result went while it ran: nobody takes its files
      }
    });
    return true;
  }

  /** Waits at most {@link #ROUND_WAIT} in all for the fetches of {@code tokens} (those this round started). */
  public void awaitStarted(Collection<Long> tokens) {
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
  public Optional<Outcome> take(long token) {
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
   * not interrupted: it ends within its own bound, and counts in its executor's share until then,
   * so that an executor cannot start more by withdrawing its results.)
   */
  public void retain(Set<Long> current) {
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
