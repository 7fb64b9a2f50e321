package org.coalition.simulator.swf;

/**
 * One job line of an SWF log: the 18 standard fields, -1 meaning unknown. Times are seconds
 * (possibly fractional); {@code submit} is relative to the log's start.
 */
public record SwfJob(
    long number,
    double submit,
    double waitTime,
    double runTime,
    int allocatedProcessors,
    double averageCpuTime,
    double usedMemory,
    int requestedProcessors,
    double requestedTime,
    double requestedMemory,
    int status,
    int user,
    int group,
    int executable,
    int queue,
    int partition,
    long precedingJob,
    double thinkTime) {

  /** SWF status codes. */
  public static final int FAILED = 0;
  public static final int COMPLETED = 1;
  public static final int CANCELLED = 5;

  /**
   * Processors the job used: the allocated count, else the requested one (CTC-SP2 and
   * MetaCentrum have no requested count; LPC-EGEE's cancelled jobs have 0 allocated), else -1.
   */
  public int processors() {
    if (allocatedProcessors > 0) {
      return allocatedProcessors;
    }
    return requestedProcessors > 0 ? requestedProcessors : -1;
  }

  /** Whether the job ran: a known, positive run time on a known number of processors. */
  public boolean ran() {
    return runTime > 0 && processors() > 0;
  }

  /** The walltime limit a scheduler would see: the requested time, else the run time (MetaCentrum). */
  public double walltimeEstimate() {
    return requestedTime > 0 ? requestedTime : runTime;
  }
}
