package org.coalition.drmaa;

import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * How a job ended, as {@code wait} reports it: exited with a status, killed by a signal, or
 * aborted before it ran (deleted while queued), and the resource usage the batch system gave.
 *
 * @param signal the terminating signal's name (e.g. {@code SIGKILL}), empty unless {@code signaled}
 */
public record JobInfo(String jobId, boolean exited, int exitStatus, boolean signaled, String signal, boolean coreDump, boolean aborted,
    Map<String, String> resourceUsage) {
  public JobInfo {
    Objects.requireNonNull(jobId, "jobId");
    Objects.requireNonNull(signal, "signal");
    resourceUsage = Map.copyOf(resourceUsage);
  }

  /** The exit status when the job exited, empty otherwise. */
  public OptionalInt exitCode() {
    return exited ? OptionalInt.of(exitStatus) : OptionalInt.empty();
  }
}
