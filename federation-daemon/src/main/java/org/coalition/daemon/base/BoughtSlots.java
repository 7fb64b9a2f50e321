package org.coalition.daemon.base;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * The capacity contracts this site bought whose slot is open now (docs/decisions/0020-capacity-contracts.md):
 * a block of the seller's, acknowledged by both parties and not broken. The market desk sets it
 * every step from the contracts' notes, as it sets {@link SoldSlots}, so it is a view of those
 * records and not state of its own. The home side reads it each round: the block is capacity this
 * site has paid for, so jobs that fit it are published beyond the period's send allowance (BILB
 * bounds best-effort sharing, not what a contract bought), as many cores at once as the open
 * blocks hold.
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

  /** The slots open now. */
  public List<Slot> open() {
    return open;
  }

  /** The desk's latest reading of the contracts' notes. */
  public void set(List<Slot> slots) {
    open = List.copyOf(slots);
  }

  /**
   * The cores of the open slots that can still take a job of {@code seconds} (its time limit and a
   * pilot's margin of {@code marginSeconds} end before its slot does) at {@code now}.
   */
  public int coresFor(long seconds, long marginSeconds, Instant now) {
    return open.stream().filter(s -> now.plusSeconds(seconds + marginSeconds).compareTo(s.end()) <= 0).mapToInt(Slot::cores).sum();
  }
}
