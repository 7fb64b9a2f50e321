package org.coalition.daemon.home;

/**
 * How one of this site's jobs ended elsewhere, kept for lookups (the API's job view, the
 * decision log): where it ran, when, and how it ended.
 *
 * @param outcome how its run was taken home ({@code replayed}, {@code output-lost}, ...)
 */
public record FinishedJob(String jobId, String executor, double release, double start, double end, int exitCode, int signal,
    boolean timedOut, String outcome, boolean outOfMemory) {}
