package org.coalition.api.model;

/** A site's declared participation level ({@code GET} and {@code PUT /v1/participation}). */
public record Participation(String site, double level) {}
