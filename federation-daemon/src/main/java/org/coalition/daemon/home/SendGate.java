package org.coalition.daemon.home;

import java.time.Clock;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import org.coalition.coordination.FederatedJob;
import org.coalition.daemon.base.BoughtSlots;
import org.coalition.daemon.base.Decisions;
import org.coalition.daemon.base.PeriodBudget;
import org.coalition.daemon.base.PilotMargin;
import org.coalition.policy.text.Numbers;

/**
 * Whether a job that would go may be published now: into a block this site bought whose slot is
 * open ({@link BoughtSlots}: capacity paid for, which BILB's allowance does not bound), or else
 * within the period's send allowance ({@link PeriodBudget}). The bought blocks hold as many cores
 * at once as they have, less those of this site's jobs in the federation and not finished (those
 * published within the allowance too, so the bound errs low); a job goes into them only if its
 * time limit and a seller's pilot margin ({@link PilotMargin}) end before its slot does.
 */
final class SendGate {
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

  /** The gate of one home round: the bought cores left as its jobs go, and what each job it let through took (allowance or block). */
  final class Round {
    private int boughtFree;
    private final Map<String, Double> charged = new HashMap<>();
    private final Map<String, Integer> intoBlocks = new HashMap<>();

    private Round(int boughtFree) {
      this.boughtFree = boughtFree;
    }

    /**
     * Whether job {@code ref} of {@code cores} cores and {@code seconds} of time limit (0: none)
     * may be published; when not, {@code tell} says so in the decision log (a job's first
     * refusal). A job without a time limit never goes into a bought block: nothing says it ends
     * in the slot.
     */
    boolean lets(String ref, int cores, long seconds, boolean tell) {
      if (seconds > 0 && cores <= Math.min(boughtFree, bought.coresFor(seconds, PilotMargin.SECONDS, clock.instant()))) {
        boughtFree -= cores;
        intoBlocks.put(ref, cores);
        return true;
      }
      double coreSeconds = PeriodBudget.coreSeconds(cores, seconds);
      if (budget.trySend(coreSeconds)) {
        charged.put(ref, coreSeconds);
        return true;
      }
      if (tell) {
        decisions.record("keep", ref, "send-allowance", String.format("this period's send allowance is used up (%s of %s core-seconds sent)",
            Numbers.format(budget.sent()), Numbers.format(budget.sendAllowance())));
      }
      return false;
    }

    /** A job let through that does not go after all: what it took, from the allowance or the bought blocks, is given back. */
    void notSent(String ref) {
      Double coreSeconds = charged.remove(ref);
      if (coreSeconds != null) {
        budget.giveBack(coreSeconds);
      }
      boughtFree += intoBlocks.getOrDefault(ref, 0);
      intoBlocks.remove(ref);
    }

    /** Why job {@code ref}, published, went: its decision line's reason, and what it adds to the line's detail. */
    Why why(String ref) {
      return !intoBlocks.containsKey(ref) ? new Why("no-local-room", "") : new Why("bought-slot", ", into a block this site bought from "
          + String.join(", ", bought.open().stream().map(BoughtSlots.Slot::seller).distinct().toList()) + ", its slot open now, beyond the"
          + " send allowance");
    }
  }

  /** Why a job was published: its decision line's reason ({@code bought-slot} or {@code no-local-room}) and the end of its detail. */
  record Why(String reason, String detail) {
  }
}
