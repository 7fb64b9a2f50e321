package org.coalition.gridengine;

import java.time.Instant;
import java.util.Optional;
import org.coalition.gridengine.GridEngineReservations.Reservation;
import org.coalition.handler.Escrow;
import org.coalition.handler.HandlerException;
import org.coalition.handler.HandlerException.Category;

/**
 * The contracts' escrow on Grid Engine ({@link Escrow}): an advance reservation ({@code qrsub},
 * {@link GridEngineReservations}) of the block's cores as slots of the pilots' parallel
 * environment, admitting an access list of its own that holds the daemon's user until it is handed
 * to the buyer's pool account. Slots, not whole hosts: where the environment puts all of a job's
 * slots on one host ({@code $pe_slots}, as {@code smp} does), a block of several nodes is refused
 * by Grid Engine in its own words, and a block of one node is the host's slots without its
 * memory. The partition is not asked for: an AR's slots come from any queue of that environment.
 */
final class GridEngineEscrow implements Escrow {
  private final GridEngineReservations reservations;
  private final String pe;
  private final String holder;

  GridEngineEscrow(GridEngineReservations reservations, String pe, String holder) {
    this.reservations = reservations;
    this.pe = pe;
    this.holder = holder;
  }

  @Override
  public Held hold(String name, Instant start, Instant end, String partition, int nodes, int coresPerNode) {
    Optional<Reservation> there = reservations.show(name);
    if (there.isPresent()) {
      return Escrow.sameWindow(held(there.get()), start, end, "qrdel " + there.get().id());
    }
    return held(reservations.escrow(name, start, end, pe, Math.multiplyExact(nodes, coresPerNode), holder));
  }

  /**
   * The list admits the buyer's pool account, and the daemon's user still: Grid Engine checks an
   * AR's access against a job's owner, and the daemon submits pilots as itself (as root, each runs
   * as its pool account through {@code runuser}).
   */
  @Override
  public Held handOver(String name, String account) {
    reservations.handOver(name, account);
    reservations.admit(name, holder);
    return find(name).orElseThrow(() -> new HandlerException(Category.NOT_FOUND, "advance reservation " + name + " is gone"));
  }

  /** The AR, or empty when there is none or it is on its way out: {@link #release} deletes its access list at once, the AR a moment later. */
  @Override
  public Optional<Held> find(String name) {
    Optional<Reservation> ar = reservations.show(name);
    if (ar.isEmpty()) {
      return Optional.empty();
    }
    try {
      return Optional.of(held(ar.get()));
    } catch (HandlerException e) {
      if (e.category() == Category.NOT_FOUND) {
        return Optional.empty();
      }
      throw e;
    }
  }

  @Override
  public boolean release(String name) {
    return reservations.remove(name);
  }

  /** The AR as held: who its access list admits now (the AR's own user list names the list, not its entries). */
  private Held held(Reservation r) {
    return new Held(r.name(), r.start(), r.end(), reservations.admitted(r.name()));
  }
}
