package org.coalition.drmaa;

import java.util.Map;
import java.util.Objects;
import org.ggf.drmaa.JobInfo;

/**
 * How a job ended, as both back ends report it: the standard's {@link JobInfo} as a value.
 *
 * @param jobId the job
 * @param exited whether the program ended by itself
 * @param exitStatus its exit status, when it exited
 * @param signaled whether a signal ended it
 * @param signal the signal's name ({@code SIGKILL}), when signaled; else empty
 * @param coreDump whether it left a core dump
 * @param aborted whether the job ended before it ran
 * @param resourceUsage what it used, by the batch system's names
 */
public record JobEnd(String jobId, boolean exited, int exitStatus, boolean signaled, String signal, boolean coreDump, boolean aborted,
    Map<String, String> resourceUsage) implements JobInfo {
  /** Copies the usage; no field is null. */
  public JobEnd {
    Objects.requireNonNull(jobId, "jobId");
    Objects.requireNonNull(signal, "signal");
    resourceUsage = Map.copyOf(resourceUsage);
  }

  @Override
  public String getJobId() {
    return jobId;
  }

  @Override
  public Map<String, String> getResourceUsage() {
    return resourceUsage;
  }

  @Override
  public boolean hasExited() {
    return exited;
  }

  @Override
  public int getExitStatus() {
    return exitStatus;
  }

  @Override
  public boolean hasSignaled() {
    return signaled;
  }

  @Override
  public String getTerminatingSignal() {
    return signal;
  }

  @Override
  public boolean hasCoreDump() {
    return coreDump;
  }

  @Override
  public boolean wasAborted() {
    return aborted;
  }
}
