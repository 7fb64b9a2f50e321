package org.coalition.coordination;

/**
 * A result accepted for one of the home site's jobs, waiting for the home site to act on it
 * (release the user's held job) and then {@linkplain Coordination#acknowledge acknowledge} it, or
 * to {@linkplain Coordination#reject reject} it. {@code claimedAt} and {@code reportedAt} are when
 * the store recorded the claim and the result (federation seconds, on the store's clock, not the
 * executor's): the bounds of the run as the home can observe it.
 */
public record Completed(JobSpec job, String executor, long token, RunResult result, double claimedAt, double reportedAt) {}
