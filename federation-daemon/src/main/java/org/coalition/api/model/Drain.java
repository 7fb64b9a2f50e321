package org.coalition.api.model;

/** {@code POST /v1/drain} and {@code GET /v1/drain}: whether the site drains, and how many foreign jobs still run there. */
public record Drain(String site, boolean draining, long foreignRunning) {}
