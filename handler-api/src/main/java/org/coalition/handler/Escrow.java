package org.coalition.handler;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * A capacity contract's escrow in the local batch system (docs/decisions/0020-capacity-contracts.md):
 * whole nodes kept from everyone but one account for a window. A seller holds a block before it
 * bids it, hands it to the buyer's pool account when the contract is binding, and releases it when
 * the bid lost or the contract lapsed. Each batch system does it its own way (Slurm's advance
 * reservation, Grid Engine's {@code qrsub} with an access list, HTCondor's {@code START} and
 * {@code PREEMPT} clauses); the name is the daemon's, the same for the same (slot, block type), so
 * a daemon that restarted finds what it held. Every method throws {@link HandlerException}.
 */
public interface Escrow {
  /** A block held: its name, window and the accounts it admits now. */
  record Held(String name, Instant start, Instant end, List<String> admits) {
    public Held {
      admits = List.copyOf(admits);
    }
  }

  /**
   * Holds {@code nodes} whole nodes of {@code coresPerNode} cores of {@code partition} (a block
   * type's parts) from {@code start} to {@code end} for the site's own account, admitting no one
   * else; where it holds one of that name for that window already, that one. Each batch system
   * holds what it can of that shape (its README says what).
   */
  Held hold(String name, Instant start, Instant end, String partition, int nodes, int coresPerNode);

  /**
   * {@code there}, the block a batch system holds already under the name asked for, if it is held
   * for {@code start} to {@code end}; otherwise REJECTED, saying how to remove it ({@code removeWith})
   * if it is not this daemon's.
   */
  static Held sameWindow(Held there, Instant start, Instant end, String removeWith) {
    if (!there.start().equals(start) || !there.end().equals(end)) {
      throw new HandlerException(HandlerException.Category.REJECTED, "reservation " + there.name() + " exists for " + there.start() + " to "
          + there.end() + ", not " + start + " to " + end + "; remove it (" + removeWith + ") if it is not this daemon's");
    }
    return there;
  }

  /** Gives the held block to {@code account} alone (the buyer's pool account). */
  Held handOver(String name, String account);

  /** The held block of that name, or empty when there is none (never made, released, or ended and purged). */
  Optional<Held> find(String name);

  /** Releases the block; false if it was already gone. */
  boolean release(String name);
}
