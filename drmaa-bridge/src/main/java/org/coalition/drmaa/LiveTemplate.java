package org.coalition.drmaa;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.ggf.drmaa.DrmaaException;
import org.ggf.drmaa.InvalidJobTemplateException;
import org.ggf.drmaa.PartialTimestamp;
import org.ggf.drmaa.SimpleJobTemplate;

/**
 * A {@link SimpleJobTemplate} that refuses every use once its session deleted it, or exited:
 * each attribute's setter and getter throws {@link InvalidJobTemplateException} then, as Grid
 * Engine's binding, the standard's reference, does ("Requested job template does not exist");
 * {@code getAttributeNames} still answers, as there. A subclass's own accessors call
 * {@link #live} first. Each accessor is overridden by name, thirty alike: the standard's class has
 * no hook before a change (its {@code modified()} runs after), and a dynamic proxy would hand out
 * something that is no {@code SimpleJobTemplate}.
 */
public abstract class LiveTemplate extends SimpleJobTemplate {
  private static final long serialVersionUID = 1L;

  private volatile boolean deleted;

  /** Marks the template deleted: every later use is refused ({@link SessionTemplates} does). */
  void delete() {
    deleted = true;
  }

  /**
   * Whether it was deleted.
   *
   * @return true once {@link #delete} was called
   */
  boolean deleted() {
    return deleted;
  }

  /**
   * Refuses a use of a deleted template.
   *
   * @param accessor the method used, for the message
   * @throws InvalidJobTemplateException when the template was deleted
   */
  protected void live(String accessor) throws InvalidJobTemplateException {
    if (deleted) {
      throw new InvalidJobTemplateException("JobTemplate." + accessor + ": the job template was deleted (Session.deleteJobTemplate), or its"
          + " session exited; make another with createJobTemplate");
    }
  }

  @Override
  public void setRemoteCommand(String value) throws DrmaaException {
    live("setRemoteCommand");
    super.setRemoteCommand(value);
  }

  @Override
  public String getRemoteCommand() throws DrmaaException {
    live("getRemoteCommand");
    return super.getRemoteCommand();
  }

  @Override
  public void setArgs(List<String> value) throws DrmaaException {
    live("setArgs");
    super.setArgs(value);
  }

  @Override
  public List<String> getArgs() throws DrmaaException {
    live("getArgs");
    return super.getArgs();
  }

  @Override
  public void setJobSubmissionState(int value) throws DrmaaException {
    live("setJobSubmissionState");
    super.setJobSubmissionState(value);
  }

  @Override
  public int getJobSubmissionState() throws DrmaaException {
    live("getJobSubmissionState");
    return super.getJobSubmissionState();
  }

  @Override
  public void setJobEnvironment(Map<String, String> value) throws DrmaaException {
    live("setJobEnvironment");
    super.setJobEnvironment(value);
  }

  @Override
  public Map<String, String> getJobEnvironment() throws DrmaaException {
    live("getJobEnvironment");
    return super.getJobEnvironment();
  }

  @Override
  public void setWorkingDirectory(String value) throws DrmaaException {
    live("setWorkingDirectory");
    super.setWorkingDirectory(value);
  }

  @Override
  public String getWorkingDirectory() throws DrmaaException {
    live("getWorkingDirectory");
    return super.getWorkingDirectory();
  }

  @Override
  public void setJobCategory(String value) throws DrmaaException {
    live("setJobCategory");
    super.setJobCategory(value);
  }

  @Override
  public String getJobCategory() throws DrmaaException {
    live("getJobCategory");
    return super.getJobCategory();
  }

  @Override
  public void setNativeSpecification(String value) throws DrmaaException {
    live("setNativeSpecification");
    super.setNativeSpecification(value);
  }

  @Override
  public String getNativeSpecification() throws DrmaaException {
    live("getNativeSpecification");
    return super.getNativeSpecification();
  }

  @Override
  public void setEmail(Set<String> value) throws DrmaaException {
    live("setEmail");
    super.setEmail(value);
  }

  @Override
  public Set<String> getEmail() throws DrmaaException {
    live("getEmail");
    return super.getEmail();
  }

  @Override
  public void setBlockEmail(boolean value) throws DrmaaException {
    live("setBlockEmail");
    super.setBlockEmail(value);
  }

  @Override
  public boolean getBlockEmail() throws DrmaaException {
    live("getBlockEmail");
    return super.getBlockEmail();
  }

  @Override
  public void setStartTime(PartialTimestamp value) throws DrmaaException {
    live("setStartTime");
    super.setStartTime(value);
  }

  @Override
  public PartialTimestamp getStartTime() throws DrmaaException {
    live("getStartTime");
    return super.getStartTime();
  }

  @Override
  public void setJobName(String value) throws DrmaaException {
    live("setJobName");
    super.setJobName(value);
  }

  @Override
  public String getJobName() throws DrmaaException {
    live("getJobName");
    return super.getJobName();
  }

  @Override
  public void setInputPath(String value) throws DrmaaException {
    live("setInputPath");
    super.setInputPath(value);
  }

  @Override
  public String getInputPath() throws DrmaaException {
    live("getInputPath");
    return super.getInputPath();
  }

  @Override
  public void setOutputPath(String value) throws DrmaaException {
    live("setOutputPath");
    super.setOutputPath(value);
  }

  @Override
  public String getOutputPath() throws DrmaaException {
    live("getOutputPath");
    return super.getOutputPath();
  }

  @Override
  public void setErrorPath(String value) throws DrmaaException {
    live("setErrorPath");
    super.setErrorPath(value);
  }

  @Override
  public String getErrorPath() throws DrmaaException {
    live("getErrorPath");
    return super.getErrorPath();
  }

  @Override
  public void setJoinFiles(boolean value) throws DrmaaException {
    live("setJoinFiles");
    super.setJoinFiles(value);
  }

  @Override
  public boolean getJoinFiles() throws DrmaaException {
    live("getJoinFiles");
    return super.getJoinFiles();
  }
}
