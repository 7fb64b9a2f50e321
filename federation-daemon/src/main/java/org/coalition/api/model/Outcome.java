package org.coalition.api.model;

/** A pilot's report of its run ({@code POST /v1/pilots/ID/finish}); outputs base64-encoded. */
public record Outcome(double start, double end, int exitCode, String stdout, String stderr) {}
