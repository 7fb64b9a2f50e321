/**
 * Pure scheduling algorithms of Coalition, shared by the daemon and the simulator. No I/O; time is
 * always a parameter ({@code now}, in seconds since the federation's epoch), never read from a
 * clock here. Decisions carry the reason they were made.
 *
 * <ul>
 *   <li>{@link org.coalition.policy.fairness}: per-job utilities, the contribution ledger, and the
 *       job-selection policies DirectContr, FairShare and RoundRobin;
 *   <li>{@link org.coalition.policy.balancing}: BILB and averaging load balancing, participation
 *       learning, the expected-delay cost;
 *   <li>{@link org.coalition.policy.shapley}: exact Shapley values, unfairness, pairwise scores;
 *   <li>{@link org.coalition.policy.contracts}: the McAfee double auction and contract-aware placement.
 * </ul>
 */
package org.coalition.policy;
