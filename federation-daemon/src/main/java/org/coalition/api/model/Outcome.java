package org.coalition.api.model;

/**
 * A pilot's report of its run ({@code POST /v1/pilots/ID/finish}); outputs base64-encoded.
 *
 * @param signal 0 (or absent) when the run exited with {@code exitCode}; otherwise the signal (1-64) that ended it
 * @param timedOut the pilot stopped the run at its time limit (absent: it did not)
 * @param outOfMemory the kernel killed a process of the run for passing its memory (absent: it did not)
 */
public record Outcome(double start, double end, int exitCode, int signal, boolean timedOut, String stdout, String stderr,
    boolean outOfMemory) {}
