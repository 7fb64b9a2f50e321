package org.coalition.policy.contracts;

import java.util.List;
import java.util.Optional;
import org.coalition.policy.contracts.Contract.Phase;

/**
 * A contract's transition table (docs/decisions/0020, "Settlement"). Each event gives the next
 * contract, the credit it moves (as data, for the ledger to carry out) and the decision-log line;
 * an event the phase does not take, or from a site the contract does not name, changes nothing
 * and says why. No I/O.
 *
 * <pre>
 *   CLEARED --acknowledged by buyer and seller--> ACKNOWLEDGED   buyer pays the seller the holding fee
 *   CLEARED --slot opens--------------------------> LAPSED        nothing paid
 *   ACKNOWLEDGED --slot opens, block given--------> OPEN
 *   ACKNOWLEDGED --slot opens, block not given----> BROKEN        fee returned; the seller pays the buyer the sell price
 *   OPEN --slot ends-------------------------------> SETTLED      runs were credited as every run is
 * </pre>
 */
public final class ContractLifecycle {
  /**
   * Share of the price paid for holding the block, the contracts paper's "prepaid ratio for
   * reserved resource" (its Table I: 0.5); the rest is earned by running the buyer's work.
   */
  public static final double PREPAID_RATIO = 0.5;

  private ContractLifecycle() {}

  /** Credit moved between two sites, and why. */
  public record Credit(String from, String to, double amount, String why) {}

  /** The next contract, the credit it moves, its decision-log line, and whether the event was refused. */
  public record Step(Contract contract, List<Credit> credits, String decision, boolean refused) {
    public Step {
      credits = List.copyOf(credits);
    }
  }

  /** Site {@code site} acknowledges the contract it wrote under its own node. */
  public static Step acknowledge(Contract c, String site) {
    ContractTerms t = c.terms();
    if (c.phase() != Phase.CLEARED) {
      return refuse(c, site + "'s acknowledgement of " + t.id() + " in phase " + c.phase() + " ignored");
    }
    if (!site.equals(t.buyer()) && !site.equals(t.seller())) {
      return refuse(c, "refused: " + site + " acknowledged " + t.id() + ", a contract between " + t.buyer() + " and " + t.seller());
    }
    boolean buyer = c.buyerAcknowledged() || site.equals(t.buyer());
    boolean seller = c.sellerAcknowledged() || site.equals(t.seller());
    Contract next = new Contract(t, buyer && seller ? Phase.ACKNOWLEDGED : Phase.CLEARED, buyer, seller, null, 0);
    if (next.phase() == Phase.CLEARED) {
      return new Step(next, List.of(), t.id() + ": acknowledged by " + site + ", waiting for the other side", false);
    }
    double fee = PREPAID_RATIO * t.sellPrice();
    return new Step(next, List.of(new Credit(t.buyer(), t.seller(), fee, "holding fee of " + t.id())),
        t.id() + ": acknowledged by both; " + t.buyer() + " pays " + t.seller() + " the holding fee " + fee, false);
  }

  /**
   * The slot opens: {@code reservation} is the seller's reservation as its batch system shows it
   * (null when there is none), {@code admitsBuyer} whether it now admits the buyer's pool account.
   */
  public static Step slotOpened(Contract c, String reservation, boolean admitsBuyer) {
    ContractTerms t = c.terms();
    if (c.phase() == Phase.CLEARED) {
      return new Step(c.with(Phase.LAPSED), List.of(), t.id() + ": lapsed, not acknowledged by both before its slot", false);
    }
    if (c.phase() != Phase.ACKNOWLEDGED) {
      return refuse(c, t.id() + ": slot opening in phase " + c.phase() + " ignored");
    }
    if (reservation == null || !admitsBuyer) {
      double fee = PREPAID_RATIO * t.sellPrice();
      String what = reservation == null ? "no reservation at the slot's start" : "reservation " + reservation + " not given to the buyer";
      Contract broken = new Contract(t, Phase.BROKEN, true, true, reservation, 0);
      return new Step(broken, List.of(new Credit(t.seller(), t.buyer(), fee, "holding fee of broken " + t.id() + " returned"),
          new Credit(t.seller(), t.buyer(), t.sellPrice(), "penalty for broken " + t.id())),
          t.id() + ": broken by " + t.seller() + " (" + what + "); fee returned and " + t.sellPrice() + " paid to " + t.buyer(), false);
    }
    return new Step(new Contract(t, Phase.OPEN, true, true, reservation, 0), List.of(),
        t.id() + ": open, reservation " + reservation + " admits " + t.buyer() + "'s pool account", false);
  }

  /** The slot ends; {@code usedCoreSeconds} is what the buyer's runs used of the block. */
  public static Step slotEnded(Contract c, double usedCoreSeconds) {
    if (c.phase() != Phase.OPEN) {
      return refuse(c, c.terms().id() + ": slot end in phase " + c.phase() + " ignored");
    }
    Contract settled = new Contract(c.terms(), Phase.SETTLED, true, true, c.reservation(), usedCoreSeconds);
    return new Step(settled, List.of(), c.terms().id() + ": settled, " + c.terms().buyer() + " used " + usedCoreSeconds
        + " core-seconds of the block", false);
  }

  /**
   * The credit a party's note of {@code phase} pays from its own ledger row, where the federation
   * has no one to move credit between two sites (docs/decisions/0020, "Settlement in the ledger"):
   * each payment is written by its payer, once, with the note that owes it. The buyer's
   * {@link Phase#OPEN} (the seller gave the block) pays the holding fee; the seller's
   * {@link Phase#BROKEN} pays the sell price. The table above moves the same net credit for
   * every contract that ends before its block was given (fee paid, then returned with the
   * price): the fee is only paid once the block is given. A block taken back during its slot
   * keeps its fee and costs the price besides. Any other note pays nothing; runs are credited as
   * every run is.
   */
  public static Optional<Credit> paidWith(ContractTerms t, String writer, Phase phase) {
    if (phase == Phase.OPEN && writer.equals(t.buyer())) {
      return Optional.of(new Credit(t.buyer(), t.seller(), PREPAID_RATIO * t.sellPrice(), "holding fee of " + t.id()));
    }
    if (phase == Phase.BROKEN && writer.equals(t.seller())) {
      return Optional.of(new Credit(t.seller(), t.buyer(), t.sellPrice(), "penalty for broken " + t.id()));
    }
    return Optional.empty();
  }

  private static Step refuse(Contract c, String why) {
    return new Step(c, List.of(), why, true);
  }
}
