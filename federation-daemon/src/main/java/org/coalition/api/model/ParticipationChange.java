package org.coalition.api.model;

/** The body of {@code PUT /v1/participation}. */
public record ParticipationChange(Double level) {}
