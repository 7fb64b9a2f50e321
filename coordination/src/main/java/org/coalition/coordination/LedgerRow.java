package org.coalition.coordination;

import java.util.Map;
import java.util.TreeMap;

/**
 * One home's row of the federation's ledger: for each executor, the runs of the home's jobs the
 * home accepted from it. Only the home writes its row, in the same ZooKeeper multi that
 * acknowledges the results, so a row holds exactly the accepted work. No site reports its own
 * contribution: {@link Ledgers} reads an executor's contribution from the homes' rows.
 */
public record LedgerRow(String home, Map<String, Credit> credits) {
  /** More executors than any federation has members; a row past it is refused as a peer's nonsense. */
  public static final int MAX_EXECUTORS = 10_000;

  public LedgerRow {
    JobSpec.requireId("home", home);
    if (credits == null || credits.size() > MAX_EXECUTORS) {
      throw new IllegalArgumentException("ledger row of " + home + ": at most " + MAX_EXECUTORS + " executors");
    }
    for (Map.Entry<String, Credit> e : credits.entrySet()) {
      JobSpec.requireId("executor", e.getKey());
      if (e.getValue() == null) {
        throw new IllegalArgumentException("ledger row of " + home + ": no credit for " + e.getKey());
      }
    }
    credits = Map.copyOf(credits);
  }

  public static LedgerRow empty(String home) {
    return new LedgerRow(home, Map.of());
  }

  /** This row with one more accepted run by {@code executor}. */
  public LedgerRow accepted(String executor, UtilitySums run) {
    Map<String, Credit> next = new TreeMap<>(credits);
    next.put(executor, next.getOrDefault(executor, Credit.NONE).plus(run));
    return new LedgerRow(home, next);
  }

  /** Everything this home has had run, wherever it ran. */
  public Credit total() {
    return credits.values().stream().reduce(Credit.NONE, Credit::plus);
  }
}
