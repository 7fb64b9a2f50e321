package org.coalition.handler;

import java.util.List;

/**
 * A site's load at one instant: pending work (jobs and core-seconds of their time limits, in
 * total and per partition) and the reservation ratio (cores allocated on usable nodes over their
 * total). {@code cost} says what the observation cost the batch system.
 */
public record QueueObservation(
    double observedAt,
    int pendingJobs,
    double pendingCoreSeconds,
    List<PartitionLoad> partitions,
    int allocatedCores,
    int totalCores,
    RequestCost cost) {
  public QueueObservation {
    partitions = List.copyOf(partitions);
    if (allocatedCores < 0 || totalCores < 0 || allocatedCores > totalCores) {
      throw new IllegalArgumentException("allocated cores " + allocatedCores + " must be within [0, total " + totalCores + "]");
    }
  }

  /** Allocated over total cores of usable nodes; 1 when there are none (nothing can be lent). */
  public double reservationRatio() {
    return totalCores == 0 ? 1.0 : (double) allocatedCores / totalCores;
  }
}
