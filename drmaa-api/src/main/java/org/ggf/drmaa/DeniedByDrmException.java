package org.ggf.drmaa;

/** The batch system refused the job, for example a template it cannot run (DRMAA_ERRNO_DENIED_BY_DRM). */
public class DeniedByDrmException extends DrmaaException {
  private static final long serialVersionUID = 1L;

  /** An error without a message. */
  public DeniedByDrmException() {
    super();
  }

  /**
   * An error with a message.
   *
   * @param message what went wrong, for a person to read
   */
  public DeniedByDrmException(String message) {
    super(message);
  }
}
