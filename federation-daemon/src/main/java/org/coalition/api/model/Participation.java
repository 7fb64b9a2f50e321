package org.coalition.api.model;

/**
 * A site's declared participation level ({@code GET} and {@code PUT /v1/participation}), and when
 * an operator set it through the API ({@code setAt}, ISO-8601; null when it is the site file's).
 */
public record Participation(String site, double level, String setAt) {}
