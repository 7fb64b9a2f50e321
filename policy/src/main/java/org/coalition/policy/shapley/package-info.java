/**
 * Measuring fairness: exact Shapley values of a coalition game, the unfairness of a schedule
 * (its distance to the Shapley value), and the pairwise scores that compare algorithms across
 * many cases.
 */
package org.coalition.policy.shapley;
