/**
 * Who is served first: per-job utilities (ORIG, REL, SIMPL), the ledger of each site's
 * contribution and utility, and the job-selection policies.
 */
package org.coalition.policy.fairness;
