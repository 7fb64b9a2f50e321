package org.ggf.drmaa;

/** The default contact string could not be used (DRMAA_ERRNO_DEFAULT_CONTACT_STRING_ERROR). */
public class DefaultContactStringException extends InvalidContactStringException {
  private static final long serialVersionUID = 1L;

  /** An error without a message. */
  public DefaultContactStringException() {
    super();
  }

  /**
   * An error with a message.
   *
   * @param message what went wrong, for a person to read
   */
  public DefaultContactStringException(String message) {
    super(message);
  }
}
