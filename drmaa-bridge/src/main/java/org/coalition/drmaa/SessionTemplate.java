package org.coalition.drmaa;

import java.util.Set;
import org.ggf.drmaa.DrmaaException;
import org.ggf.drmaa.FileTransferMode;
import org.ggf.drmaa.InvalidAttributeValueException;
import org.ggf.drmaa.JobTemplate;
import org.ggf.drmaa.PartialTimestamp;
import org.ggf.drmaa.SimpleJobTemplate;
import org.ggf.drmaa.UnsupportedAttributeException;

/**
 * The job template both back ends hand out: the standard's {@link SimpleJobTemplate}, refusing use
 * once deleted ({@link LiveTemplate}), plus the optional attributes its back end supports (named
 * at creation, by property name), and the session it belongs to. Sessions make, check and delete
 * them through {@link SessionTemplates}.
 */
public final class SessionTemplate extends LiveTemplate {
  /** The optional attributes' property names, as {@link JobTemplate#getAttributeNames()} lists them. */
  public static final Set<String> OPTIONAL = CAttributes.OPTIONAL.keySet();
  private static final long serialVersionUID = 1L;

  private final transient Object session;
  private final Set<String> supported;
  private FileTransferMode transferFiles;
  private PartialTimestamp deadlineTime;
  private long hardWallclockTimeLimit;
  private long softWallclockTimeLimit;
  private long hardRunDurationLimit;
  private long softRunDurationLimit;

  /**
   * A template of a session.
   *
   * @param session the session that made it
   * @param supported the optional attributes its back end supports, of {@link #OPTIONAL}
   */
  SessionTemplate(Object session, Set<String> supported) {
    if (!OPTIONAL.containsAll(supported)) {
      throw new IllegalArgumentException("not optional attributes of DRMAA 1.0: " + supported);
    }
    this.session = session;
    this.supported = Set.copyOf(supported);
  }

  /** Whether {@code session} made it. */
  boolean madeBy(Object session) {
    return this.session == session;
  }

  @Override
  protected Set<String> getOptionalAttributeNames() {
    return supported;
  }

  private void supports(String name) throws DrmaaException {
    live(name);
    if (!supported.contains(name)) {
      throw new UnsupportedAttributeException(name + " is not supported by this DRMAA implementation (it supports " + getOptionalAttributeNames()
          + " of the optional attributes)");
    }
  }

  private static long seconds(String name, long value) throws InvalidAttributeValueException {
    if (value < 0) {
      throw new InvalidAttributeValueException(name + " is a number of seconds, not negative: " + value);
    }
    return value;
  }

  @Override
  public void setTransferFiles(FileTransferMode mode) throws DrmaaException {
    supports("transferFiles");
    transferFiles = mode == null ? null : (FileTransferMode) mode.clone();
    modified();
  }

  @Override
  public FileTransferMode getTransferFiles() throws DrmaaException {
    supports("transferFiles");
    return transferFiles;
  }

  @Override
  public void setDeadlineTime(PartialTimestamp time) throws DrmaaException {
    supports("deadlineTime");
    deadlineTime = time == null ? null : (PartialTimestamp) time.clone();
    modified();
  }

  @Override
  public PartialTimestamp getDeadlineTime() throws DrmaaException {
    supports("deadlineTime");
    return deadlineTime;
  }

  @Override
  public void setHardWallclockTimeLimit(long limit) throws DrmaaException {
    supports("hardWallclockTimeLimit");
    hardWallclockTimeLimit = seconds("hardWallclockTimeLimit", limit);
    modified();
  }

  @Override
  public long getHardWallclockTimeLimit() throws DrmaaException {
    supports("hardWallclockTimeLimit");
    return hardWallclockTimeLimit;
  }

  @Override
  public void setSoftWallclockTimeLimit(long limit) throws DrmaaException {
    supports("softWallclockTimeLimit");
    softWallclockTimeLimit = seconds("softWallclockTimeLimit", limit);
    modified();
  }

  @Override
  public long getSoftWallclockTimeLimit() throws DrmaaException {
    supports("softWallclockTimeLimit");
    return softWallclockTimeLimit;
  }

  @Override
  public void setHardRunDurationLimit(long limit) throws DrmaaException {
    supports("hardRunDurationLimit");
    hardRunDurationLimit = seconds("hardRunDurationLimit", limit);
    modified();
  }

  @Override
  public long getHardRunDurationLimit() throws DrmaaException {
    supports("hardRunDurationLimit");
    return hardRunDurationLimit;
  }

  @Override
  public void setSoftRunDurationLimit(long limit) throws DrmaaException {
    supports("softRunDurationLimit");
    softRunDurationLimit = seconds("softRunDurationLimit", limit);
    modified();
  }

  @Override
  public long getSoftRunDurationLimit() throws DrmaaException {
    supports("softRunDurationLimit");
    return softRunDurationLimit;
  }
}
