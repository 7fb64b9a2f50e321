package org.coalition.drmaa;

import java.time.Duration;
import java.util.List;

/**
 * A DRMAA 1.0 session: submit jobs, control them, wait for them. The calls and their semantics
 * are DRMAA 1.0's ({@code drmaa_init} ... {@code drmaa_exit}), in Java types. Implementations:
 * {@code jna.NativeSession} (any {@code libdrmaa.so}, e.g. Grid Engine's) and, for HTCondor 9+
 * which has no DRMAA library, the condor-handler's session over HTCondor's tools.
 *
 * <p>Thread-safe: several threads may submit, control and wait at once. DRMAA 1.0 allows one
 * active session per process.
 */
public interface Session extends AutoCloseable {
  /** Wait forever ({@link #waitFor}, {@link #synchronize}). */
  Duration WAIT_FOREVER = Duration.ofSeconds(-1);
  /** Do not wait: answer now. */
  Duration NO_WAIT = Duration.ZERO;
  /** Every job of the session, for {@link #control} and {@link #synchronize}. */
  String JOB_IDS_SESSION_ALL = "DRMAA_JOB_IDS_SESSION_ALL";
  /** Any job of the session, for {@link #waitFor}. */
  String JOB_IDS_SESSION_ANY = "DRMAA_JOB_IDS_SESSION_ANY";

  /** {@code drmaa_control} actions, with their DRMAA codes. */
  enum Action {
    SUSPEND(0), RESUME(1), HOLD(2), RELEASE(3), TERMINATE(4);

    private final int code;

    Action(int code) {
      this.code = code;
    }

    public int code() {
      return code;
    }
  }

  /** Opens the session; {@code contact} empty or null for the default batch system. */
  void init(String contact);

  /** Closes the session: jobs keep running, but can no longer be waited for through it. */
  void exit();

  @Override
  default void close() {
    exit();
  }

  /** A new, empty template (a plain value; see {@link JobTemplate}). */
  default JobTemplate createJobTemplate() {
    return new JobTemplate();
  }

  /** Submits one job; returns its id. */
  String runJob(JobTemplate template);

  /** Submits a bulk (array) job of tasks {@code start..end} by {@code incr}; returns the tasks' ids. */
  List<String> runBulkJobs(JobTemplate template, int start, int end, int incr);

  /** Suspends, resumes, holds, releases or terminates a job ({@link #JOB_IDS_SESSION_ALL}: all of the session's). */
  void control(String jobId, Action action);

  /** Waits until all {@code jobIds} ended ({@link #JOB_IDS_SESSION_ALL}: every job of the session); {@code dispose} forgets their results. */
  void synchronize(List<String> jobIds, Duration timeout, boolean dispose);

  /** Waits until the job ends ({@link #JOB_IDS_SESSION_ANY}: any), and reaps it; {@link DrmaaException.ExitTimeoutException} on timeout. */
  JobInfo waitFor(String jobId, Duration timeout);

  /** The job's state now. */
  JobState getJobProgramStatus(String jobId);

  /** The contact string of the session (or of the default batch system, before {@link #init}). */
  String getContact();

  /** The DRMAA version the implementation speaks, e.g. {@code 1.0}. */
  String getVersion();

  /** The batch system, e.g. {@code GE 8.1.9}. */
  String getDrmSystem();

  /** The DRMAA implementation, e.g. {@code GE 8.1.9} or {@code coalition-condor}. */
  String getDrmaaImplementation();
}
