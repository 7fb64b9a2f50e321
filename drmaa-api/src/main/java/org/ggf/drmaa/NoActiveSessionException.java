package org.ggf.drmaa;

/** A call that needs a session came before {@code init} or after {@code exit} (DRMAA_ERRNO_NO_ACTIVE_SESSION). */
public class NoActiveSessionException extends DrmaaException {
  private static final long serialVersionUID = 1L;

  /** An error without a message. */
  public NoActiveSessionException() {
    super();
  }

  /**
   * An error with a message.
   *
   * @param message what went wrong, for a person to read
   */
  public NoActiveSessionException(String message) {
    super(message);
  }
}
