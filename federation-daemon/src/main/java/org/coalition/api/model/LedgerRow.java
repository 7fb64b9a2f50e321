package org.coalition.api.model;

/** One site's DirectContr ledger: contribution, utility, priority, runs. */
public record LedgerRow(String site, double contribution, double utility, double priority, long jobsExecuted, long jobsSubmitted) {}
