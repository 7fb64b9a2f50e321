package org.coalition.daemon.home;

import java.time.Clock;
import java.util.Collection;
import org.coalition.coordination.FederatedJob;
import org.coalition.daemon.base.BoughtSlots;
import org.coalition.daemon.base.Decisions;
import org.coalition.daemon.base.PeriodBudget;
import org.coalition.policy.text.Numbers;

/**
 * Whether a job that would go may be published now: into a block this site bought whose slot is
 * open ({@link BoughtSlots}: capacity paid for, which BILB's allowance does not bound), or else
 * within the period's send allowance ({@link PeriodBudget}). The bought blocks hold as many cores
 * at once as they have, less those of this site's jobs in the federation and not finished (those
 * published within the allowance too, so the bound errs low); a job goes into them only if its
 * time limit and a seller's pilot margin end before its slot does.
 */
final class SendGate {
  /** What a seller's pilot in a sold slot asks beyond its job's time limit (the executor side's margin), so that the job ends in the slot. */
  static final long SELLERS_MARGIN_SECONDS = 60;

  private final PeriodBudget budget;
  private final BoughtSlots bought;
  private final Decisions decisions;
  private final Clock clock;

  SendGate(PeriodBudget budget, BoughtSlots bought, Decisions decisions, Clock clock) {
    this.budget = budget;
    this.bought = bought;
    this.decisions = decisions;
    this.clock = clock;
  }

  BoughtSlots bought() {
    return bought;
  }

  /** One round's gate, given this site's jobs in the federation now. */
  Round round(Collection<FederatedJob> inFederation) {
    int taken = inFederation.stream().filter(f -> !f.finished()).mapToInt(f -> f.job().cores()).sum();
    return new Round(bought.open().stream().mapToInt(BoughtSlots.Slot::cores).sum() - taken);
  }

  /** The gate of one home round: the bought cores left as its jobs go. */
  final class Round {
    private int boughtFree;

    private Round(int boughtFree) {
      this.boughtFree = boughtFree;
    }

    /**
     * Whether job {@code ref} of {@code cores} cores and {@code seconds} of time limit may be
     * published; when not, {@code tell} says so in the decision log (a job's first refusal).
     */
    boolean lets(String ref, int cores, long seconds, boolean tell) {
      if (cores <= Math.min(boughtFree, bought.coresFor(seconds, SELLERS_MARGIN_SECONDS, clock.instant()))) {
        boughtFree -= cores;
        decisions.record("publish", ref, "bought-slot", cores + " cores of a block this site bought, its slot open now (from "
            + String.join(", ", bought.open().stream().map(BoughtSlots.Slot::seller).distinct().toList()) + "), beyond the send allowance");
        return true;
      }
      if (budget.trySend(PeriodBudget.coreSeconds(cores, seconds))) {
        return true;
      }
      if (tell) {
        decisions.record("keep", ref, "send-allowance", String.format("this period's send allowance is used up (%s of %s core-seconds sent)",
            Numbers.format(budget.sent()), Numbers.format(budget.sendAllowance())));
      }
      return false;
    }
  }
}
