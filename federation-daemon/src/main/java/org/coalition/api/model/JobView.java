package org.coalition.api.model;

/** Where one of this site's federated jobs is ({@code GET /v1/jobs/ID}); start, end and exit code once it ended. */
public record JobView(String site, String id, String state, String executor, double release, Double start, Double end, Integer exitCode) {}
