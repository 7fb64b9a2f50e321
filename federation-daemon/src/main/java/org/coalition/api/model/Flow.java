package org.coalition.api.model;

/** What {@code home} credited {@code executor} with: the jobs it ran, and their value under the federation's utility. */
public record Flow(String home, String executor, long jobs, double work) {}
