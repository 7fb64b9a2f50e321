package org.coalition.daemon.home;

import java.util.Optional;
import org.coalition.coordination.Completed;
import org.coalition.coordination.RunResult;
import org.coalition.policy.text.Numbers;

/**
 * The home's check of a result before anything of it is used: a result is a peer's write, and its
 * times go straight into the ledger that orders the federation (DirectContr), so they must lie
 * inside the claim's life as the home can observe it. The store's own stamps bound the run: it
 * cannot have started before the claim was recorded nor ended after the result was, and it cannot
 * have run longer than the job's time limit (plus the batch system's grace to kill it). The
 * executor's clock may differ from the store's by up to {@link #SKEW_SECONDS}. {@link RunResult}
 * has already refused times that are not finite or out of order.
 */
final class ResultCheck {
  /** How far an executor's clock may be from the store's (NTP keeps honest sites within a second). */
  static final double SKEW_SECONDS = 60;
  /** How long past its time limit a run may go before its batch system has killed it (Slurm's KillWait and more). */
  static final double OVERRUN_SECONDS = 300;

  /** Why a result was refused: a short code for the metric, and the reason for the log. */
  record Refusal(String code, String reason) {}

  private ResultCheck() {}

  /** Empty when the result is acceptable, else why not. */
  static Optional<Refusal> check(Completed c) {
    RunResult r = c.result();
    if (r.start() < c.claimedAt() - SKEW_SECONDS) {
      return refuse("times", "started at " + Numbers.format(r.start()) + " s, before its claim was made at " + Numbers.format(c.claimedAt()) + " s");
    }
    if (r.end() > c.reportedAt() + SKEW_SECONDS) {
      return refuse("times", "ended at " + Numbers.format(r.end()) + " s, after its result was written at " + Numbers.format(c.reportedAt())
          + " s");
    }
    double limit = c.job().walltimeSeconds() + OVERRUN_SECONDS;
    if (r.end() - r.start() > limit) {
      return refuse("walltime", "ran " + Numbers.format(r.end() - r.start()) + " s, more than its time limit of " + c.job().walltimeSeconds()
          + " s allows");
    }
    return Optional.empty();
  }

  private static Optional<Refusal> refuse(String code, String reason) {
    return Optional.of(new Refusal(code, reason));
  }
}
