package org.coalition.policy.balancing;

/** {@code amount} of work moves from {@code from}'s queue to {@code to}'s. */
public record Transfer(String from, String to, double amount) {}
