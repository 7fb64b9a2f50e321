package org.coalition.policy.contracts;

import java.util.Objects;

/**
 * A contract's whole state: its terms, its phase, who has acknowledged it, the seller's
 * reservation once handed over, and the core-seconds the buyer used in the slot. Immutable;
 * only {@link ContractLifecycle} makes the next one (STYLE.md items 16 and 20).
 */
public record Contract(ContractTerms terms, Phase phase, boolean buyerAcknowledged, boolean sellerAcknowledged, String reservation,
    double usedCoreSeconds) {
  /** Where a contract is in its life. */
  public enum Phase {
    /** Cleared by the market; neither side has acknowledged yet, or one has. */
    CLEARED,
    /** Both sides acknowledged; the holding fee is paid; waiting for the slot. */
    ACKNOWLEDGED,
    /** The slot is open and the seller's reservation was handed to the buyer's pool account. */
    OPEN,
    /** The slot ended with the block given: final. */
    SETTLED,
    /** The seller did not give the block (no reservation at the slot's start, or not the buyer's): final. */
    BROKEN,
    /** Not acknowledged by both sides before the slot opened: final, nothing paid. */
    LAPSED;

    public boolean isFinal() {
      return this == SETTLED || this == BROKEN || this == LAPSED;
    }
  }

  public Contract {
    Objects.requireNonNull(terms, "terms");
    Objects.requireNonNull(phase, "phase");
    if (!(usedCoreSeconds >= 0)) {
      throw new IllegalArgumentException("contract " + terms.id() + ": used core-seconds must be >= 0, was " + usedCoreSeconds);
    }
  }

  /** A contract just cleared. */
  public static Contract cleared(ContractTerms terms) {
    return new Contract(terms, Phase.CLEARED, false, false, null, 0);
  }

  Contract with(Phase next) {
    return new Contract(terms, next, buyerAcknowledged, sellerAcknowledged, reservation, usedCoreSeconds);
  }
}
