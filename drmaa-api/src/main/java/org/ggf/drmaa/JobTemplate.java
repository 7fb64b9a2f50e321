package org.ggf.drmaa;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What to run and how: the attributes of one or more jobs to submit. A session makes its own
 * templates ({@link Session#createJobTemplate}); a template outlives the jobs submitted with it
 * only as a value, and changing it afterwards changes no submitted job.
 *
 * <p>The attributes marked optional may be unsupported by an implementation, which then throws
 * {@link UnsupportedAttributeException} from both accessors; {@link #getAttributeNames} lists
 * those supported.
 */
public interface JobTemplate {
  /** {@link #setJobSubmissionState}: the job is submitted held (it waits for a release). */
  int HOLD_STATE = 0;
  /** {@link #setJobSubmissionState}: the job may run as soon as the batch system likes. */
  int ACTIVE_STATE = 1;
  /** Placeholder for the user's home directory, at the start of a path attribute. */
  String HOME_DIRECTORY = "$drmaa_hd_ph$";
  /** Placeholder for the job's working directory, at the start of a path attribute. */
  String WORKING_DIRECTORY = "$drmaa_wd_ph$";
  /** Placeholder for a bulk job's index, anywhere in a path attribute or the working directory. */
  String PARAMETRIC_INDEX = "$drmaa_incr_ph$";

  /**
   * Sets drmaa_remote_command: the program to run, a path on the execution host.
   *
   * @param remoteCommand the value
   * @throws DrmaaException when the value is invalid or the attribute unsupported
   */
  void setRemoteCommand(String remoteCommand) throws DrmaaException;

  /**
   * Reads drmaa_remote_command.
   *
   * @return the value set, or the default when none was
   * @throws DrmaaException when the attribute is unsupported
   */
  String getRemoteCommand() throws DrmaaException;

  /**
   * Sets drmaa_v_argv: the program's arguments, in order.
   *
   * @param args the value
   * @throws DrmaaException when the value is invalid or the attribute unsupported
   */
  void setArgs(List<String> args) throws DrmaaException;

  /**
   * Reads drmaa_v_argv.
   *
   * @return the value set, or the default when none was
   * @throws DrmaaException when the attribute is unsupported
   */
  List<String> getArgs() throws DrmaaException;

  /**
   * Sets drmaa_js_state: {@link #ACTIVE_STATE} to let the job run, {@link #HOLD_STATE} to submit it held.
   *
   * @param jobSubmissionState the value
   * @throws DrmaaException when the value is invalid or the attribute unsupported
   */
  void setJobSubmissionState(int jobSubmissionState) throws DrmaaException;

  /**
   * Reads drmaa_js_state.
   *
   * @return the value set, or the default when none was
   * @throws DrmaaException when the attribute is unsupported
   */
  int getJobSubmissionState() throws DrmaaException;

  /**
   * Sets drmaa_v_env: the environment variables the job runs with.
   *
   * @param jobEnvironment the value
   * @throws DrmaaException when the value is invalid or the attribute unsupported
   */
  void setJobEnvironment(Map<String, String> jobEnvironment) throws DrmaaException;

  /**
   * Reads drmaa_v_env.
   *
   * @return the value set, or the default when none was
   * @throws DrmaaException when the attribute is unsupported
   */
  Map<String, String> getJobEnvironment() throws DrmaaException;

  /**
   * Sets drmaa_wd: the directory the job starts in; may hold {@link #HOME_DIRECTORY} or {@link #PARAMETRIC_INDEX}.
   *
   * @param workingDirectory the value
   * @throws DrmaaException when the value is invalid or the attribute unsupported
   */
  void setWorkingDirectory(String workingDirectory) throws DrmaaException;

  /**
   * Reads drmaa_wd.
   *
   * @return the value set, or the default when none was
   * @throws DrmaaException when the attribute is unsupported
   */
  String getWorkingDirectory() throws DrmaaException;

  /**
   * Sets drmaa_job_category: a name the site maps to batch-system options of its own choosing.
   *
   * @param jobCategory the value
   * @throws DrmaaException when the value is invalid or the attribute unsupported
   */
  void setJobCategory(String jobCategory) throws DrmaaException;

  /**
   * Reads drmaa_job_category.
   *
   * @return the value set, or the default when none was
   * @throws DrmaaException when the attribute is unsupported
   */
  String getJobCategory() throws DrmaaException;

  /**
   * Sets drmaa_native_specification: options in the batch system's own language, passed on as they are.
   *
   * @param nativeSpecification the value
   * @throws DrmaaException when the value is invalid or the attribute unsupported
   */
  void setNativeSpecification(String nativeSpecification) throws DrmaaException;

  /**
   * Reads drmaa_native_specification.
   *
   * @return the value set, or the default when none was
   * @throws DrmaaException when the attribute is unsupported
   */
  String getNativeSpecification() throws DrmaaException;

  /**
   * Sets drmaa_v_email: addresses told about the job's events.
   *
   * @param email the value
   * @throws DrmaaException when the value is invalid or the attribute unsupported
   */
  void setEmail(Set<String> email) throws DrmaaException;

  /**
   * Reads drmaa_v_email.
   *
   * @return the value set, or the default when none was
   * @throws DrmaaException when the attribute is unsupported
   */
  Set<String> getEmail() throws DrmaaException;

  /**
   * Sets drmaa_block_email: whether to keep the batch system from sending mail.
   *
   * @param blockEmail the value
   * @throws DrmaaException when the value is invalid or the attribute unsupported
   */
  void setBlockEmail(boolean blockEmail) throws DrmaaException;

  /**
   * Reads drmaa_block_email.
   *
   * @return the value set, or the default when none was
   * @throws DrmaaException when the attribute is unsupported
   */
  boolean getBlockEmail() throws DrmaaException;

  /**
   * Sets drmaa_start_time: the earliest time the job may start.
   *
   * @param startTime the value
   * @throws DrmaaException when the value is invalid or the attribute unsupported
   */
  void setStartTime(PartialTimestamp startTime) throws DrmaaException;

  /**
   * Reads drmaa_start_time.
   *
   * @return the value set, or the default when none was
   * @throws DrmaaException when the attribute is unsupported
   */
  PartialTimestamp getStartTime() throws DrmaaException;

  /**
   * Sets drmaa_job_name: the job's name.
   *
   * @param jobName the value
   * @throws DrmaaException when the value is invalid or the attribute unsupported
   */
  void setJobName(String jobName) throws DrmaaException;

  /**
   * Reads drmaa_job_name.
   *
   * @return the value set, or the default when none was
   * @throws DrmaaException when the attribute is unsupported
   */
  String getJobName() throws DrmaaException;

  /**
   * Sets drmaa_input_path: where standard input comes from, {@code [hostname]:path}.
   *
   * @param inputPath the value
   * @throws DrmaaException when the value is invalid or the attribute unsupported
   */
  void setInputPath(String inputPath) throws DrmaaException;

  /**
   * Reads drmaa_input_path.
   *
   * @return the value set, or the default when none was
   * @throws DrmaaException when the attribute is unsupported
   */
  String getInputPath() throws DrmaaException;

  /**
   * Sets drmaa_output_path: where standard output goes, {@code [hostname]:path}.
   *
   * @param outputPath the value
   * @throws DrmaaException when the value is invalid or the attribute unsupported
   */
  void setOutputPath(String outputPath) throws DrmaaException;

  /**
   * Reads drmaa_output_path.
   *
   * @return the value set, or the default when none was
   * @throws DrmaaException when the attribute is unsupported
   */
  String getOutputPath() throws DrmaaException;

  /**
   * Sets drmaa_error_path: where standard error goes, {@code [hostname]:path}.
   *
   * @param errorPath the value
   * @throws DrmaaException when the value is invalid or the attribute unsupported
   */
  void setErrorPath(String errorPath) throws DrmaaException;

  /**
   * Reads drmaa_error_path.
   *
   * @return the value set, or the default when none was
   * @throws DrmaaException when the attribute is unsupported
   */
  String getErrorPath() throws DrmaaException;

  /**
   * Sets drmaa_join_files: whether standard error goes where standard output goes.
   *
   * @param joinFiles the value
   * @throws DrmaaException when the value is invalid or the attribute unsupported
   */
  void setJoinFiles(boolean joinFiles) throws DrmaaException;

  /**
   * Reads drmaa_join_files.
   *
   * @return the value set, or the default when none was
   * @throws DrmaaException when the attribute is unsupported
   */
  boolean getJoinFiles() throws DrmaaException;

  /**
   * Sets drmaa_transfer_files (optional): which of the three streams' files are copied to and from the execution host.
   *
   * @param transferFiles the value
   * @throws DrmaaException when the value is invalid or the attribute unsupported
   */
  void setTransferFiles(FileTransferMode transferFiles) throws DrmaaException;

  /**
   * Reads drmaa_transfer_files (optional).
   *
   * @return the value set, or the default when none was
   * @throws DrmaaException when the attribute is unsupported
   */
  FileTransferMode getTransferFiles() throws DrmaaException;

  /**
   * Sets drmaa_deadline_time (optional): the time by which the job should have ended.
   *
   * @param deadlineTime the value
   * @throws DrmaaException when the value is invalid or the attribute unsupported
   */
  void setDeadlineTime(PartialTimestamp deadlineTime) throws DrmaaException;

  /**
   * Reads drmaa_deadline_time (optional).
   *
   * @return the value set, or the default when none was
   * @throws DrmaaException when the attribute is unsupported
   */
  PartialTimestamp getDeadlineTime() throws DrmaaException;

  /**
   * Sets drmaa_wct_hlimit (optional): seconds the job may run before it is killed.
   *
   * @param hardWallclockTimeLimit the value
   * @throws DrmaaException when the value is invalid or the attribute unsupported
   */
  void setHardWallclockTimeLimit(long hardWallclockTimeLimit) throws DrmaaException;

  /**
   * Reads drmaa_wct_hlimit (optional).
   *
   * @return the value set, or the default when none was
   * @throws DrmaaException when the attribute is unsupported
   */
  long getHardWallclockTimeLimit() throws DrmaaException;

  /**
   * Sets drmaa_wct_slimit (optional): seconds after which the job is warned it should end.
   *
   * @param softWallclockTimeLimit the value
   * @throws DrmaaException when the value is invalid or the attribute unsupported
   */
  void setSoftWallclockTimeLimit(long softWallclockTimeLimit) throws DrmaaException;

  /**
   * Reads drmaa_wct_slimit (optional).
   *
   * @return the value set, or the default when none was
   * @throws DrmaaException when the attribute is unsupported
   */
  long getSoftWallclockTimeLimit() throws DrmaaException;

  /**
   * Sets drmaa_run_duration_hlimit (optional): seconds the job is expected to run at most, for scheduling; it is killed past them.
   *
   * @param hardRunDurationLimit the value
   * @throws DrmaaException when the value is invalid or the attribute unsupported
   */
  void setHardRunDurationLimit(long hardRunDurationLimit) throws DrmaaException;

  /**
   * Reads drmaa_run_duration_hlimit (optional).
   *
   * @return the value set, or the default when none was
   * @throws DrmaaException when the attribute is unsupported
   */
  long getHardRunDurationLimit() throws DrmaaException;

  /**
   * Sets drmaa_run_duration_slimit (optional): seconds the job is expected to run at most, for scheduling.
   *
   * @param softRunDurationLimit the value
   * @throws DrmaaException when the value is invalid or the attribute unsupported
   */
  void setSoftRunDurationLimit(long softRunDurationLimit) throws DrmaaException;

  /**
   * Reads drmaa_run_duration_slimit (optional).
   *
   * @return the value set, or the default when none was
   * @throws DrmaaException when the attribute is unsupported
   */
  long getSoftRunDurationLimit() throws DrmaaException;

  /**
   * The attributes this implementation supports, by their property names ({@code remoteCommand},
   * {@code args}, ...: the accessors' names without {@code get} or {@code set}), mandatory and
   * optional ones, plus any of the implementation's own.
   *
   * @return the names
   * @throws DrmaaException when the implementation cannot say
   */
  Set<String> getAttributeNames() throws DrmaaException;
}
