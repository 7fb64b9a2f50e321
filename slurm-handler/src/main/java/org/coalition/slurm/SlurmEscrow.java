package org.coalition.slurm;

import java.time.Instant;
import java.util.Optional;
import org.coalition.handler.Escrow;
import org.coalition.slurm.SlurmReservations.Reservation;

/**
 * The contracts' escrow on Slurm ({@link Escrow}): an advance reservation through the site's
 * {@code scontrol} ({@link SlurmReservations}), held for the daemon's own account (the observer
 * user it acts as) until it is handed to the buyer's pool account. Whole nodes of the partition
 * ({@code NodeCnt}); which nodes and their cores are Slurm's to choose, so a block type should name
 * a partition of nodes alike.
 */
final class SlurmEscrow implements Escrow {
  private final SlurmReservations reservations;
  private final String holder;

  SlurmEscrow(SlurmReservations reservations, String holder) {
    this.reservations = reservations;
    this.holder = holder;
  }

  @Override
  public Held hold(String name, Instant start, Instant end, String partition, int nodes, int coresPerNode) {
    Optional<Held> there = find(name);
    if (there.isPresent()) {
      return Escrow.sameWindow(there.get(), start, end, "scontrol delete ReservationName=" + name);
    }
    return held(reservations.escrow(name, start, end, partition, nodes, holder));
  }

  @Override
  public Held handOver(String name, String account) {
    return held(reservations.handOver(name, account));
  }

  @Override
  public Optional<Held> find(String name) {
    return reservations.show(name).map(SlurmEscrow::held);
  }

  @Override
  public boolean release(String name) {
    return reservations.remove(name);
  }

  private static Held held(Reservation r) {
    return new Held(r.name(), r.start(), r.end(), r.users());
  }
}
