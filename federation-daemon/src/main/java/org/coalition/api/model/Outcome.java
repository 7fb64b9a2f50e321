package org.coalition.api.model;

/**
 * A pilot's report of its run ({@code POST /v1/pilots/ID/finish}); outputs base64-encoded.
 *
 * @param signal 0 (or absent) when the run exited with {@code exitCode}; otherwise the signal (1-64) that ended it
 */
public record Outcome(double start, double end, int exitCode, int signal, String stdout, String stderr) {}
