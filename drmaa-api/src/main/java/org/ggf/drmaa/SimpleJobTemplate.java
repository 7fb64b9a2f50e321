package org.ggf.drmaa;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A job template that only holds values: the mandatory attributes as fields, the optional ones
 * unsupported ({@link UnsupportedAttributeException}). An implementation may use it as it is, or
 * extend it to check values or support optional attributes (then overriding both accessors and
 * {@link #getOptionalAttributeNames}); subclasses that change a field directly call
 * {@link #modified}.
 *
 * <p>Objects default to {@code null}, booleans to {@code false}, the submission state to
 * {@link #ACTIVE_STATE} (a job runs unless asked to be held). Collections are copied in and
 * handed out unmodifiable. Not thread safe: one template belongs to one thread at a time.
 */
public class SimpleJobTemplate implements JobTemplate, Serializable {
  private static final long serialVersionUID = 1L;
  private static final List<String> MANDATORY = List.of(
      "remoteCommand", "args", "jobSubmissionState", "jobEnvironment", "workingDirectory", "jobCategory", "nativeSpecification", "email",
      "blockEmail", "startTime", "jobName", "inputPath", "outputPath", "errorPath", "joinFiles");
  /** drmaa_remote_command. */
  protected String remoteCommand;
  /** drmaa_v_argv. */
  protected List<String> args;
  /** drmaa_js_state. */
  protected int jobSubmissionState = ACTIVE_STATE;
  /** drmaa_v_env. */
  protected Map<String, String> jobEnvironment;
  /** drmaa_wd. */
  protected String workingDirectory;
  /** drmaa_job_category. */
  protected String jobCategory;
  /** drmaa_native_specification. */
  protected String nativeSpecification;
  /** drmaa_v_email. */
  protected Set<String> email;
  /** drmaa_block_email. */
  protected boolean blockEmail;
  /** drmaa_start_time. */
  protected PartialTimestamp startTime;
  /** drmaa_job_name. */
  protected String jobName;
  /** drmaa_input_path. */
  protected String inputPath;
  /** drmaa_output_path. */
  protected String outputPath;
  /** drmaa_error_path. */
  protected String errorPath;
  /** drmaa_join_files. */
  protected boolean joinFiles;
  private transient String text;

  /** An empty template. */
  public SimpleJobTemplate() {
  }

  @Override
  public void setRemoteCommand(String remoteCommand) throws DrmaaException {
    this.remoteCommand = remoteCommand;
    modified();
  }

  @Override
  public String getRemoteCommand() throws DrmaaException {
    return remoteCommand;
  }

  @Override
  public void setArgs(List<String> args) throws DrmaaException {
    this.args = args == null ? null : Collections.unmodifiableList(new ArrayList<>(args));
    modified();
  }

  @Override
  public List<String> getArgs() throws DrmaaException {
    return args;
  }

  @Override
  public void setJobSubmissionState(int jobSubmissionState) throws DrmaaException {
    if (jobSubmissionState != HOLD_STATE && jobSubmissionState != ACTIVE_STATE) {
      throw new InvalidAttributeValueException("jobSubmissionState is HOLD_STATE (0) or ACTIVE_STATE (1), not " + jobSubmissionState);
    }
    this.jobSubmissionState = jobSubmissionState;
    modified();
  }

  @Override
  public int getJobSubmissionState() throws DrmaaException {
    return jobSubmissionState;
  }

  @Override
  public void setJobEnvironment(Map<String, String> jobEnvironment) throws DrmaaException {
    this.jobEnvironment = jobEnvironment == null ? null : Collections.unmodifiableMap(new HashMap<>(jobEnvironment));
    modified();
  }

  @Override
  public Map<String, String> getJobEnvironment() throws DrmaaException {
    return jobEnvironment;
  }

  @Override
  public void setWorkingDirectory(String workingDirectory) throws DrmaaException {
    this.workingDirectory = workingDirectory;
    modified();
  }

  @Override
  public String getWorkingDirectory() throws DrmaaException {
    return workingDirectory;
  }

  @Override
  public void setJobCategory(String jobCategory) throws DrmaaException {
    this.jobCategory = jobCategory;
    modified();
  }

  @Override
  public String getJobCategory() throws DrmaaException {
    return jobCategory;
  }

  @Override
  public void setNativeSpecification(String nativeSpecification) throws DrmaaException {
    this.nativeSpecification = nativeSpecification;
    modified();
  }

  @Override
  public String getNativeSpecification() throws DrmaaException {
    return nativeSpecification;
  }

  @Override
  public void setEmail(Set<String> email) throws DrmaaException {
    this.email = email == null ? null : Collections.unmodifiableSet(new HashSet<>(email));
    modified();
  }

  @Override
  public Set<String> getEmail() throws DrmaaException {
    return email;
  }

  @Override
  public void setBlockEmail(boolean blockEmail) throws DrmaaException {
    this.blockEmail = blockEmail;
    modified();
  }

  @Override
  public boolean getBlockEmail() throws DrmaaException {
    return blockEmail;
  }

  @Override
  public void setStartTime(PartialTimestamp startTime) throws DrmaaException {
    this.startTime = startTime == null ? null : (PartialTimestamp) startTime.clone();
    modified();
  }

  @Override
  public PartialTimestamp getStartTime() throws DrmaaException {
    return startTime == null ? null : (PartialTimestamp) startTime.clone(); // a copy, as it was copied in
  }

  @Override
  public void setJobName(String jobName) throws DrmaaException {
    this.jobName = jobName;
    modified();
  }

  @Override
  public String getJobName() throws DrmaaException {
    return jobName;
  }

  @Override
  public void setInputPath(String inputPath) throws DrmaaException {
    this.inputPath = inputPath;
    modified();
  }

  @Override
  public String getInputPath() throws DrmaaException {
    return inputPath;
  }

  @Override
  public void setOutputPath(String outputPath) throws DrmaaException {
    this.outputPath = outputPath;
    modified();
  }

  @Override
  public String getOutputPath() throws DrmaaException {
    return outputPath;
  }

  @Override
  public void setErrorPath(String errorPath) throws DrmaaException {
    this.errorPath = errorPath;
    modified();
  }

  @Override
  public String getErrorPath() throws DrmaaException {
    return errorPath;
  }

  @Override
  public void setJoinFiles(boolean joinFiles) throws DrmaaException {
    this.joinFiles = joinFiles;
    modified();
  }

  @Override
  public boolean getJoinFiles() throws DrmaaException {
    return joinFiles;
  }

  @Override
  public void setTransferFiles(FileTransferMode transferFiles) throws DrmaaException {
    throw new UnsupportedAttributeException("drmaa_transfer_files (transferFiles) is not supported by this implementation");
  }

  @Override
  public FileTransferMode getTransferFiles() throws DrmaaException {
    throw new UnsupportedAttributeException("drmaa_transfer_files (transferFiles) is not supported by this implementation");
  }

  @Override
  public void setDeadlineTime(PartialTimestamp deadlineTime) throws DrmaaException {
    throw new UnsupportedAttributeException("drmaa_deadline_time (deadlineTime) is not supported by this implementation");
  }

  @Override
  public PartialTimestamp getDeadlineTime() throws DrmaaException {
    throw new UnsupportedAttributeException("drmaa_deadline_time (deadlineTime) is not supported by this implementation");
  }

  @Override
  public void setHardWallclockTimeLimit(long hardWallclockTimeLimit) throws DrmaaException {
    throw new UnsupportedAttributeException("drmaa_wct_hlimit (hardWallclockTimeLimit) is not supported by this implementation");
  }

  @Override
  public long getHardWallclockTimeLimit() throws DrmaaException {
    throw new UnsupportedAttributeException("drmaa_wct_hlimit (hardWallclockTimeLimit) is not supported by this implementation");
  }

  @Override
  public void setSoftWallclockTimeLimit(long softWallclockTimeLimit) throws DrmaaException {
    throw new UnsupportedAttributeException("drmaa_wct_slimit (softWallclockTimeLimit) is not supported by this implementation");
  }

  @Override
  public long getSoftWallclockTimeLimit() throws DrmaaException {
    throw new UnsupportedAttributeException("drmaa_wct_slimit (softWallclockTimeLimit) is not supported by this implementation");
  }

  @Override
  public void setHardRunDurationLimit(long hardRunDurationLimit) throws DrmaaException {
    throw new UnsupportedAttributeException("drmaa_run_duration_hlimit (hardRunDurationLimit) is not supported by this implementation");
  }

  @Override
  public long getHardRunDurationLimit() throws DrmaaException {
    throw new UnsupportedAttributeException("drmaa_run_duration_hlimit (hardRunDurationLimit) is not supported by this implementation");
  }

  @Override
  public void setSoftRunDurationLimit(long softRunDurationLimit) throws DrmaaException {
    throw new UnsupportedAttributeException("drmaa_run_duration_slimit (softRunDurationLimit) is not supported by this implementation");
  }

  @Override
  public long getSoftRunDurationLimit() throws DrmaaException {
    throw new UnsupportedAttributeException("drmaa_run_duration_slimit (softRunDurationLimit) is not supported by this implementation");
  }

  @Override
  public Set<String> getAttributeNames() throws DrmaaException {
    Set<String> names = new LinkedHashSet<>(MANDATORY);
    names.addAll(getOptionalAttributeNames());
    return Collections.unmodifiableSet(names);
  }

  /**
   * The optional attributes a subclass supports, by property name ({@code transferFiles},
   * {@code deadlineTime}, {@code hardWallclockTimeLimit}, ...): none here.
   *
   * @return the names
   */
  protected Set<String> getOptionalAttributeNames() {
    return Collections.emptySet();
  }

  /** Called after any attribute changes; forgets the cached {@link #toString} text. */
  protected void modified() {
    text = null;
  }

  /** Every attribute set, by property name, in the order {@link #getAttributeNames} lists them; cached until {@link #modified}. */
  @Override
  public String toString() {
    if (text == null) {
      StringBuilder b = new StringBuilder("{");
      field(b, "remoteCommand", remoteCommand);
      field(b, "args", args);
      field(b, "jobSubmissionState", jobSubmissionState);
      field(b, "jobEnvironment", jobEnvironment);
      field(b, "workingDirectory", workingDirectory);
      field(b, "jobCategory", jobCategory);
      field(b, "nativeSpecification", nativeSpecification);
      field(b, "email", email);
      field(b, "blockEmail", blockEmail);
      field(b, "startTime", startTime == null ? null : text(startTime));
      field(b, "jobName", jobName);
      field(b, "inputPath", inputPath);
      field(b, "outputPath", outputPath);
      field(b, "errorPath", errorPath);
      field(b, "joinFiles", joinFiles);
      text = b.append("}").toString();
    }
    return text;
  }

  private static String text(PartialTimestamp time) {
    try {
      return new PartialTimestampFormat().format(time);
    } catch (IllegalArgumentException e) {
      return "(" + e.getMessage() + ")";
    }
  }

  private static void field(StringBuilder b, String name, Object value) {
    if (value != null) {
      b.append(b.length() > 1 ? ", " : "").append(name).append("=").append(value);
    }
  }
}
