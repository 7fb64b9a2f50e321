/**
 * The CloudShare paper's fairness experiment: jobs of real logs normalised to one-core one-hour
 * tasks, the three scenarios, every coalition's value, Shapley-based unfairness and pairwise
 * scores of the selection policies.
 */
package org.coalition.simulator.cloudshare;
