package org.coalition.api.model;

import java.util.Map;

/**
 * {@code GET /v1/health/live} and {@code /v1/health/ready}: whether the daemon is alive (its
 * rounds run) or ready (joined, its ZooKeeper session connected, its batch system answering), and
 * each check's state in words. Answered 200 when {@code ok}, 503 otherwise.
 */
public record Health(boolean ok, Map<String, String> checks) {}
