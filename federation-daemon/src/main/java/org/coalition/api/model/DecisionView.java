package org.coalition.api.model;

/** One decision: when (ms since the epoch), its kind, what about, the reason's key and why in words. */
public record DecisionView(long millis, String kind, String subject, String reason, String detail) {}
