package org.coalition.simulator.contracts;

import java.util.List;

/**
 * Each site's mean wait alone, in a global pool (the contracts paper's RT: one FCFS queue over
 * every core, no site's interest), and with day-ahead contracts; what it traded and its credit.
 */
public record ContractsResult(List<Site> perSite, int contracts, int broken) {
  public ContractsResult {
    perSite = List.copyOf(perSite);
  }

  /** One site's figures; waits in seconds, credit in core-seconds (holding fees received less paid). */
  public record Site(int site, int jobs, double waitAlone, double waitGlobal, double waitContracts, int bought, int sold, double credit) {}

  /** Sites whose mean wait under the global pool is more than 1% above their wait alone. */
  public long worseOffGlobal() {
    return perSite.stream().filter(s -> s.waitGlobal() > 1.01 * s.waitAlone() + 1).count();
  }

  /** Sites whose mean wait with contracts is more than 1% above their wait alone. */
  public long worseOffContracts() {
    return perSite.stream().filter(s -> s.waitContracts() > 1.01 * s.waitAlone() + 1).count();
  }
}
