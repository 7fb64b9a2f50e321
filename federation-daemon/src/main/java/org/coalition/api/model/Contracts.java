package org.coalition.api.model;

import java.util.List;

/** The site's capacity contracts of yesterday's, today's and tomorrow's slots ({@code GET /v1/contracts}), in slot order. */
public record Contracts(String site, List<ContractView> contracts) {
  public Contracts {
    contracts = List.copyOf(contracts);
  }
}
