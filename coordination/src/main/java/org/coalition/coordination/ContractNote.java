package org.coalition.coordination;

import java.util.Objects;
import java.util.regex.Pattern;
import org.coalition.policy.contracts.Contract.Phase;
import org.coalition.policy.contracts.ContractTerms;

/**
 * What one party of a contract says of it, in its own market folder: the terms the clearing gave,
 * the phase the party has it in, and the seller's reservation once handed over (empty before).
 * A contract is binding when both parties' notes say {@link Phase#ACKNOWLEDGED} or later.
 */
public record ContractNote(String writer, ContractTerms terms, Phase phase, String reservation) {
  /** A reservation name as Slurm, Grid Engine and HTCondor take one: bounded, no spaces or quotes. */
  private static final Pattern RESERVATION = Pattern.compile("[A-Za-z0-9._-]{0,64}");

  public ContractNote {
    JobSpec.requireId("writer", writer);
    Objects.requireNonNull(terms, "terms");
    Objects.requireNonNull(phase, "phase");
    reservation = reservation == null ? "" : reservation;
    if (!RESERVATION.matcher(reservation).matches()) {
      throw new IllegalArgumentException("contract " + terms.id() + ": a reservation name is up to 64 of A-Z a-z 0-9 . _ -, was "
          + reservation.length() + " characters");
    }
    if (!writer.equals(terms.buyer()) && !writer.equals(terms.seller())) {
      throw new IllegalArgumentException("contract " + terms.id() + " is " + terms.buyer() + "'s and " + terms.seller()
          + "'s; " + writer + " is neither");
    }
  }
}
