package org.coalition.api.model;

import java.util.Map;

/** One site's load, pilots and decisions: {@code GET /v1/status}. */
public record Status(String site, String handler, boolean zookeeperConnected, boolean leader, int pendingJobs, double pendingCoreSeconds,
    int allocatedCores, int totalCores, double reservationRatio, double exposureThreshold, double participation,
    Map<String, Integer> pilots, int jobsInFederation, Map<String, Long> decisions) {}
