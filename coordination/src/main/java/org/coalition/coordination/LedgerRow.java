package org.coalition.coordination;

import java.util.Map;
import java.util.TreeMap;

/**
 * One home's row of the federation's ledger: for each executor, the runs of the home's jobs the
 * home accepted from it ({@code credits}); and for each site, what this site paid it for its
 * contracts ({@code paid}: a holding fee as buyer, a broken contract's price as seller, each
 * written with the contract note that owes it, see
 * {@link org.coalition.policy.contracts.ContractLifecycle#paidWith}). Only the home writes its
 * row, in the same ZooKeeper multi that acknowledges the results or notes the contract, so a row
 * holds exactly the accepted work and the payments made. No site reports its own contribution:
 * {@link Ledgers} reads a site's contribution from the other rows.
 */
public record LedgerRow(String home, Map<String, Credit> credits, Map<String, Credit> paid) {
  /** More executors than any federation has members; a row past it is refused as a peer's nonsense. */
  public static final int MAX_EXECUTORS = 10_000;

  public LedgerRow {
    JobSpec.requireId("home", home);
    credits = checked(home, "executor", credits);
    paid = checked(home, "payee", paid == null ? Map.of() : paid);
  }

  /** A row of runs alone, as rows were before contracts. */
  public LedgerRow(String home, Map<String, Credit> credits) {
    this(home, credits, Map.of());
  }

  private static Map<String, Credit> checked(String home, String what, Map<String, Credit> credits) {
    if (credits == null || credits.size() > MAX_EXECUTORS) {
      throw new IllegalArgumentException("ledger row of " + home + ": at most " + MAX_EXECUTORS + " " + what + "s");
    }
    for (Map.Entry<String, Credit> e : credits.entrySet()) {
      JobSpec.requireId(what, e.getKey());
      if (e.getValue() == null) {
        throw new IllegalArgumentException("ledger row of " + home + ": no credit for " + e.getKey());
      }
    }
    return Map.copyOf(credits);
  }

  public static LedgerRow empty(String home) {
    return new LedgerRow(home, Map.of());
  }

  /** This row with one more accepted run by {@code executor}. */
  public LedgerRow accepted(String executor, UtilitySums run) {
    return new LedgerRow(home, plus(credits, executor, run), paid);
  }

  /** This row with one more payment to {@code payee} (counted as one in the payee's {@link Credit#jobs}). */
  public LedgerRow paid(String payee, UtilitySums payment) {
    return new LedgerRow(home, credits, plus(paid, payee, payment));
  }

  private static Map<String, Credit> plus(Map<String, Credit> credits, String to, UtilitySums sums) {
    Map<String, Credit> next = new TreeMap<>(credits);
    next.put(to, next.getOrDefault(to, Credit.NONE).plus(sums));
    return next;
  }

  /** Everything this home has had run, wherever it ran. */
  public Credit total() {
    return credits.values().stream().reduce(Credit.NONE, Credit::plus);
  }
}
