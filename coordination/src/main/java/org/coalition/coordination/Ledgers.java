package org.coalition.coordination;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The federation's ledger as every site reads it, from the homes' rows ({@link LedgerRow}): a
 * site's utility is the sum of its own row (what it had run), its contribution the sum of what
 * the homes credited it with. A contract's payment ({@link LedgerRow#paid}) counts the same way:
 * in its payee's contribution and its payer's utility. A member can therefore not raise its own
 * contribution; rewriting its own row only gives its priority away (every credit or payment it
 * writes counts in its utility too), and the priorities of all sites sum to zero.
 */
public final class Ledgers {
  private Ledgers() {}

  /** Each member's ledger; a row naming a non-member executor credits nobody. */
  public static Map<String, SiteLedger> of(Collection<LedgerRow> rows, Collection<String> members) {
    Map<String, Credit> contributed = new HashMap<>();
    Map<String, Credit> used = new HashMap<>();
    Map<String, UtilitySums> received = new HashMap<>();
    Map<String, UtilitySums> spent = new HashMap<>();
    for (LedgerRow row : rows) {
      if (!members.contains(row.home())) {
        continue;
      }
      for (Map.Entry<String, Credit> e : row.credits().entrySet()) {
        if (members.contains(e.getKey())) {
          contributed.merge(e.getKey(), e.getValue(), Credit::plus);
          used.merge(row.home(), e.getValue(), Credit::plus);
        }
      }
      for (Map.Entry<String, Credit> e : row.paid().entrySet()) {
        if (members.contains(e.getKey())) {
          received.merge(e.getKey(), e.getValue().sums(), UtilitySums::plus);
          spent.merge(row.home(), e.getValue().sums(), UtilitySums::plus);
        }
      }
    }
    Map<String, SiteLedger> out = new TreeMap<>();
    for (String site : members) {
      Credit c = contributed.getOrDefault(site, Credit.NONE);
      Credit u = used.getOrDefault(site, Credit.NONE);
      out.put(site, new SiteLedger(site, c.sums().plus(received.getOrDefault(site, UtilitySums.ZERO)),
          u.sums().plus(spent.getOrDefault(site, UtilitySums.ZERO)), c.jobs(), u.jobs()));
    }
    return out;
  }
}
