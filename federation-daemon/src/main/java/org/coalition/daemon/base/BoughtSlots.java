package org.coalition.daemon.base;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalDouble;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The capacity contracts this site bought whose slot is open now (docs/decisions/0020-capacity-contracts.md):
 * a block of the seller's, acknowledged by both parties and not broken. The market desk sets it
 * every step from the contracts' notes, as it sets {@link SoldSlots}, so it is a view of those
 * records and not state of its own. The home side reads it each round: the block is capacity this
 * site has paid for, so jobs that fit it are published beyond the period's send allowance (BILB
 * bounds best-effort sharing, not what a contract bought), as many cores at once as the open
 * blocks hold. The home side tells it in turn when each run it took home started, by executor
 * ({@link #ran}): the buyer's evidence that a seller served its slot, even when the run came and
 * went between two of the desk's steps. That reading lives as long as the daemon; after a restart
 * the desk judges from the federation's records alone.
 */
public final class BoughtSlots {
  /** One open slot: the seller, the block's cores, and when the slot ends. */
  public record Slot(String seller, int cores, Instant end) {
    public Slot {
      Objects.requireNonNull(seller, "seller");
      Objects.requireNonNull(end, "end");
      if (cores < 1) {
        throw new IllegalArgumentException("an open slot bought of " + seller + " holds at least a core, was " + cores);
      }
    }
  }

  private volatile List<Slot> open = List.of();
  /** The latest start (the federation's clock) of a run taken home, by executor: at most one entry per member site. */
  private final Map<String, Double> lastRun = new ConcurrentHashMap<>();

  /** The slots open now. */
  public List<Slot> open() {
    return open;
  }

  /** The desk's latest reading of the contracts' notes. */
  public void set(List<Slot> slots) {
    open = List.copyOf(slots);
  }

  /** A run of this site's by {@code executor}, started at {@code start} (the federation's clock), was taken home. */
  public void ran(String executor, double start) {
    lastRun.merge(executor, start, Math::max);
  }

  /** When the latest run of this site's that {@code executor} gave back started (the federation's clock), if one did since this daemon started. */
  public OptionalDouble lastRunAt(String executor) {
    Double at = lastRun.get(executor);
    return at == null ? OptionalDouble.empty() : OptionalDouble.of(at);
  }

  /**
   * The cores of the open slots that can still take a job of {@code seconds} (its time limit and a
   * pilot's margin of {@code marginSeconds} end before its slot does) at {@code now}.
   */
  public int coresFor(long seconds, long marginSeconds, Instant now) {
    return open.stream().filter(s -> now.plusSeconds(seconds + marginSeconds).compareTo(s.end()) <= 0).mapToInt(Slot::cores).sum();
  }
}
