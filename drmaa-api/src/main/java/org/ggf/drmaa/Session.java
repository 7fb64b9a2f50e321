package org.ggf.drmaa;

import java.util.List;

/**
 * A program's connection to one batch system: it submits jobs, controls them and waits for
 * them. A process has at most one active session, between {@link #init} and {@link #exit}.
 * Implementations must be safe to call from several threads at once.
 */
public interface Session {
  /** {@link #control} action: stop a running job without ending it. */
  int SUSPEND = 0;
  /** {@link #control} action: let a suspended job run again. */
  int RESUME = 1;
  /** {@link #control} action: keep a queued job from starting. */
  int HOLD = 2;
  /** {@link #control} action: let a held job be scheduled again. */
  int RELEASE = 3;
  /** {@link #control} action: end a job, queued or running. */
  int TERMINATE = 4;

  /** A job id meaning every job this session submitted ({@link #control}, {@link #synchronize}). */
  String JOB_IDS_SESSION_ALL = "DRMAA_JOB_IDS_SESSION_ALL";
  /** A job id meaning whichever job of this session ends first ({@link #wait}). */
  String JOB_IDS_SESSION_ANY = "DRMAA_JOB_IDS_SESSION_ANY";

  /** A timeout meaning: wait until the jobs end, however long that takes. */
  long TIMEOUT_WAIT_FOREVER = -1L;
  /** A timeout meaning: do not wait; answer from the jobs' present state. */
  long TIMEOUT_NO_WAIT = 0L;

  /** Job state: the batch system cannot tell. */
  int UNDETERMINED = 0x00;
  /** Job state: queued and eligible to run. */
  int QUEUED_ACTIVE = 0x10;
  /** Job state: queued and held by the system. */
  int SYSTEM_ON_HOLD = 0x11;
  /** Job state: queued and held by its user. */
  int USER_ON_HOLD = 0x12;
  /** Job state: queued and held by both. */
  int USER_SYSTEM_ON_HOLD = 0x13;
  /** Job state: running. */
  int RUNNING = 0x20;
  /** Job state: suspended by the system. */
  int SYSTEM_SUSPENDED = 0x21;
  /** Job state: suspended by its user. */
  int USER_SUSPENDED = 0x22;
  /** Job state: suspended by both. */
  int USER_SYSTEM_SUSPENDED = 0x23;
  /** Job state: ended normally. */
  int DONE = 0x30;
  /** Job state: ended abnormally, or never ran. */
  int FAILED = 0x40;

  /**
   * Opens the session.
   *
   * @param contact which batch system to talk to, in the implementation's form; {@code null} or
   *     empty for its default
   * @throws DrmaaException {@link AlreadyActiveSessionException} when a session is open,
   *     {@link DrmsInitException} (or a subclass) when the batch system cannot be reached
   */
  void init(String contact) throws DrmaaException;

  /**
   * Closes the session. Jobs already submitted are not touched.
   *
   * @throws DrmaaException {@link NoActiveSessionException} when none is open
   */
  void exit() throws DrmaaException;

  /**
   * A new, empty job template belonging to this session.
   *
   * @return the template
   * @throws DrmaaException when no session is open
   */
  JobTemplate createJobTemplate() throws DrmaaException;

  /**
   * Releases a template made by {@link #createJobTemplate}; jobs submitted with it are not touched.
   *
   * @param jt the template
   * @throws DrmaaException {@link InvalidJobTemplateException} when it is not this session's
   */
  void deleteJobTemplate(JobTemplate jt) throws DrmaaException;

  /**
   * Submits one job.
   *
   * @param jt what to run and how
   * @return the job's id
   * @throws DrmaaException when the template is invalid or the batch system refuses the job
   */
  String runJob(JobTemplate jt) throws DrmaaException;

  /**
   * Submits a set of parametric jobs, indices {@code start}, {@code start + incr}, ... up to
   * {@code end}; {@link JobTemplate#PARAMETRIC_INDEX} in the template stands for each index.
   *
   * @param jt what to run and how
   * @param start the first index, at least 1
   * @param end the last index, at least {@code start}
   * @param incr the step, at least 1
   * @return the jobs' ids, in index order
   * @throws DrmaaException when the range or template is invalid or the batch system refuses
   */
  List<String> runBulkJobs(JobTemplate jt, int start, int end, int incr) throws DrmaaException;

  /**
   * Acts on a job: {@link #SUSPEND}, {@link #RESUME}, {@link #HOLD}, {@link #RELEASE} or
   * {@link #TERMINATE}.
   *
   * @param jobId the job, or {@link #JOB_IDS_SESSION_ALL}
   * @param action what to do
   * @throws DrmaaException {@link InvalidJobException} for an unknown job, an
   *     {@link InconsistentStateException} when the action does not fit the job's state
   */
  void control(String jobId, int action) throws DrmaaException;

  /**
   * Waits until all of the given jobs have ended.
   *
   * @param jobIds the jobs, or a list holding {@link #JOB_IDS_SESSION_ALL}
   * @param timeout seconds, or {@link #TIMEOUT_WAIT_FOREVER}, or {@link #TIMEOUT_NO_WAIT}
   * @param dispose whether to forget the jobs' end (no later {@link #wait} can read it)
   * @throws DrmaaException {@link ExitTimeoutException} when the time runs out first
   */
  void synchronize(List<String> jobIds, long timeout, boolean dispose) throws DrmaaException;

  /**
   * Waits until a job ends and reads how it ended; the job's record is then gone.
   *
   * @param jobId the job, or {@link #JOB_IDS_SESSION_ANY}
   * @param timeout seconds, or {@link #TIMEOUT_WAIT_FOREVER}, or {@link #TIMEOUT_NO_WAIT}
   * @return how the job ended
   * @throws DrmaaException {@link ExitTimeoutException} when the time runs out first,
   *     {@link InvalidJobException} when the job is unknown or already reaped
   */
  JobInfo wait(String jobId, long timeout) throws DrmaaException;

  /**
   * A job's present state, one of the state constants of this interface.
   *
   * @param jobId the job
   * @return its state
   * @throws DrmaaException {@link InvalidJobException} when the job is unknown
   */
  int getJobProgramStatus(String jobId) throws DrmaaException;

  /**
   * Before {@link #init}: the contact strings this implementation accepts; after: the one in use.
   *
   * @return the contact
   */
  String getContact();

  /**
   * The version of the DRMAA standard implemented: 1.0.
   *
   * @return the version
   */
  Version getVersion();

  /**
   * Before {@link #init}: the batch systems this implementation supports; after: the one in use.
   *
   * @return the batch system's name
   */
  String getDrmSystem();

  /**
   * Before {@link #init}: the implementations available; after: the one in use.
   *
   * @return the implementation's name
   */
  String getDrmaaImplementation();
}
