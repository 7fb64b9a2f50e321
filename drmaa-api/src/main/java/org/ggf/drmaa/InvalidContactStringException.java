package org.ggf.drmaa;

/** The contact string given to {@code init} is not one this implementation understands (DRMAA_ERRNO_INVALID_CONTACT_STRING). */
public class InvalidContactStringException extends DrmsInitException {
  private static final long serialVersionUID = 1L;

  /** An error without a message. */
  public InvalidContactStringException() {
    super();
  }

  /**
   * An error with a message.
   *
   * @param message what went wrong, for a person to read
   */
  public InvalidContactStringException(String message) {
    super(message);
  }
}
