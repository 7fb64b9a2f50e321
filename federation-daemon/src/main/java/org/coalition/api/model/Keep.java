package org.coalition.api.model;

/** The answer to a heartbeat: whether the run goes on. */
public record Keep(boolean keep) {}
