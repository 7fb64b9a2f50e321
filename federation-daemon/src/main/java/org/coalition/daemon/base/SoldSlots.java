package org.coalition.daemon.base;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * The capacity contracts this site sold whose slot is open now: each a reservation of the batch
 * system handed to the buyer's pool account (docs/decisions/0020-capacity-contracts.md). The
 * market desk sets it every step from the contracts' notes, the one record of them, so it is a
 * view of those records and not state of its own: a restarted daemon has it again at its desk's
 * first step. The executor side reads it each round and submits the buyer's pilots into those
 * reservations.
 */
public final class SoldSlots {
  /** One open slot: the buyer, the reservation its pilots go into, the block's cores, and when the slot ends. */
  public record Slot(String buyer, String reservation, int cores, Instant end) {
    public Slot {
      Objects.requireNonNull(buyer, "buyer");
      Objects.requireNonNull(reservation, "reservation");
      Objects.requireNonNull(end, "end");
      if (cores < 1) {
        throw new IllegalArgumentException("an open slot of " + buyer + " holds at least a core, was " + cores);
      }
    }
  }

  private volatile List<Slot> open = List.of();

  /** The slots open now. */
  public List<Slot> open() {
    return open;
  }

  /** The desk's latest reading of the contracts' notes. */
  public void set(List<Slot> slots) {
    open = List.copyOf(slots);
  }
}
