package org.coalition.api.model;

import java.util.List;

/** The work that flowed from each home to each executor, as the homes credited it ({@code GET /v1/flows}). */
public record Flows(String utility, double at, List<Flow> flows) {}
