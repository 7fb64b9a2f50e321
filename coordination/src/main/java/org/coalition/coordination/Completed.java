package org.coalition.coordination;

/**
 * A result accepted for one of the home site's jobs, waiting for the home site to act on it
 * (release the user's held job) and then {@linkplain Coordination#acknowledge acknowledge} it.
 */
public record Completed(JobSpec job, String executor, long token, RunResult result) {}
