package org.coalition.api.model;

/** One site of the federation as {@code GET /v1/sites} shows it. */
public record SiteView(String site, boolean live, String endpoint, int cores, double queueCoreSeconds, int queuedJobs,
    double reservationRatio, double participation, double sendAllowance, double receiveAllowance) {}
