package org.coalition.api.model;

/**
 * Where one of this site's federated jobs is ({@code GET /v1/jobs/ID}); start, end, exit code and
 * signal once it ended ({@code signal} set when a signal ended the run, then {@code exitCode} is 0;
 * {@code timedOut} true when the executor stopped the run at its time limit, absent otherwise).
 */
public record JobView(String site, String id, String state, String executor, double release, Double start, Double end, Integer exitCode,
    Integer signal, Boolean timedOut) {}
