package org.ggf.drmaa;

/** Opening a session with the batch system failed (DRMAA_ERRNO_DRMS_INIT_FAILED). */
public class DrmsInitException extends DrmaaException {
  private static final long serialVersionUID = 1L;

  /** An error without a message. */
  public DrmsInitException() {
    super();
  }

  /**
   * An error with a message.
   *
   * @param message what went wrong, for a person to read
   */
  public DrmsInitException(String message) {
    super(message);
  }
}
