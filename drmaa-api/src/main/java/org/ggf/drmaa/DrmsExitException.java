package org.ggf.drmaa;

/** Leaving the batch system's session failed (DRMAA_ERRNO_DRMS_EXIT_ERROR). */
public class DrmsExitException extends DrmaaException {
  private static final long serialVersionUID = 1L;

  /** An error without a message. */
  public DrmsExitException() {
    super();
  }

  /**
   * An error with a message.
   *
   * @param message what went wrong, for a person to read
   */
  public DrmsExitException(String message) {
    super(message);
  }
}
