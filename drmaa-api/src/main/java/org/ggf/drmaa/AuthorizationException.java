package org.ggf.drmaa;

/** The caller may not do what it asked, such as controlling another user's job (DRMAA_ERRNO_AUTH_FAILURE). */
public class AuthorizationException extends DrmaaException {
  private static final long serialVersionUID = 1L;

  /** An error without a message. */
  public AuthorizationException() {
    super();
  }

  /**
   * An error with a message.
   *
   * @param message what went wrong, for a person to read
   */
  public AuthorizationException(String message) {
    super(message);
  }
}
