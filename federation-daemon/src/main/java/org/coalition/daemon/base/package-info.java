/**
 * What every part of the broker shares: its settings ({@link org.coalition.daemon.base.BrokerSettings},
 * the identity domains, pilot reuse), the decision log and metrics, the period's BILB allowances,
 * the transition tables' types, and small helpers (contained steps, bounded parallel calls,
 * owner-only folders, the peers' names). Depends on no other package of the daemon.
 */
package org.coalition.daemon.base;
