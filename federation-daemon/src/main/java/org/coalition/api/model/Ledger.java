package org.coalition.api.model;

import java.util.List;

/** Every site's ledger under one utility, at one time ({@code GET /v1/ledger}). */
public record Ledger(String utility, double at, List<LedgerRow> sites) {}
