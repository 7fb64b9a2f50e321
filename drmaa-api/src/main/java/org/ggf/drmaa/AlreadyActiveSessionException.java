package org.ggf.drmaa;

/** {@code init} was called while a session is active (DRMAA_ERRNO_ALREADY_ACTIVE_SESSION). */
public class AlreadyActiveSessionException extends DrmaaException {
  private static final long serialVersionUID = 1L;

  /** An error without a message. */
  public AlreadyActiveSessionException() {
    super();
  }

  /**
   * An error with a message.
   *
   * @param message what went wrong, for a person to read
   */
  public AlreadyActiveSessionException(String message) {
    super(message);
  }
}
