package org.coalition.handler.config;

/**
 * A value of a site file and the line (1-based) it starts on, so that a problem can be reported
 * where the admin wrote it: a {@code Map<String, Node>}, a {@code List<Node>}, a scalar string, or null.
 */
public record Node(Object value, int line) {}
