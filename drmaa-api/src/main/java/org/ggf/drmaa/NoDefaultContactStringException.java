package org.ggf.drmaa;

/** No contact string was given and the implementation has no default (DRMAA_ERRNO_NO_DEFAULT_CONTACT_STRING_SELECTED). */
public class NoDefaultContactStringException extends InvalidContactStringException {
  private static final long serialVersionUID = 1L;

  /** An error without a message. */
  public NoDefaultContactStringException() {
    super();
  }

  /**
   * An error with a message.
   *
   * @param message what went wrong, for a person to read
   */
  public NoDefaultContactStringException(String message) {
    super(message);
  }
}
