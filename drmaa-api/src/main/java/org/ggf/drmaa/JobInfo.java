package org.ggf.drmaa;

import java.util.Map;

/** How a job ended, as {@link Session#wait} reads it. */
public interface JobInfo {
  /**
   * The job this is about.
   *
   * @return its id
   * @throws DrmaaException when the implementation cannot say
   */
  String getJobId() throws DrmaaException;

  /**
   * What the job used, by the batch system's names (for example {@code cpu} or
   * {@code wallclock}), values as the batch system writes them.
   *
   * @return the usage; empty when the batch system reports none
   * @throws DrmaaException when the implementation cannot say
   */
  Map<String, String> getResourceUsage() throws DrmaaException;

  /**
   * Whether the job's program ended by itself (so {@link #getExitStatus} means something).
   *
   * @return true when it exited
   * @throws DrmaaException when the implementation cannot say
   */
  boolean hasExited() throws DrmaaException;

  /**
   * The program's exit status; only meaningful when {@link #hasExited}.
   *
   * @return the status, 0 to 255
   * @throws DrmaaException when the implementation cannot say
   */
  int getExitStatus() throws DrmaaException;

  /**
   * Whether a signal ended the program.
   *
   * @return true when it did
   * @throws DrmaaException when the implementation cannot say
   */
  boolean hasSignaled() throws DrmaaException;

  /**
   * The signal that ended the program, by name ({@code SIGKILL}); only meaningful when
   * {@link #hasSignaled}.
   *
   * @return the signal's name
   * @throws DrmaaException when the implementation cannot say
   */
  String getTerminatingSignal() throws DrmaaException;

  /**
   * Whether the program left a core dump; only meaningful when {@link #hasSignaled}.
   *
   * @return true when it did
   * @throws DrmaaException when the implementation cannot say
   */
  boolean hasCoreDump() throws DrmaaException;

  /**
   * Whether the job ended before it ever ran (deleted while queued, or refused).
   *
   * @return true when it never ran
   * @throws DrmaaException when the implementation cannot say
   */
  boolean wasAborted() throws DrmaaException;
}
