package org.coalition.handler;

/** Pending work in one partition (queue): jobs, and core-seconds of their time limits. */
public record PartitionLoad(String partition, int pendingJobs, double pendingCoreSeconds) {}
