package org.coalition.api.model;

import java.util.List;

/** This daemon's latest decisions, newest first ({@code GET /v1/decisions}). */
public record RecentDecisions(String site, List<DecisionView> decisions) {}
