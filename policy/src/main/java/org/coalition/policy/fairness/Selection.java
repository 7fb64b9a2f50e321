package org.coalition.policy.fairness;

/** The job a policy picked for a free slot, and why (operators read this in the log and the API). */
public record Selection(QueuedJob job, String reason) {}
