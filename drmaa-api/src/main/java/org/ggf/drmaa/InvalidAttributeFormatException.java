package org.ggf.drmaa;

/** A job template attribute's value is not in the form the attribute needs (DRMAA_ERRNO_INVALID_ATTRIBUTE_FORMAT). */
public class InvalidAttributeFormatException extends InvalidAttributeValueException {
  private static final long serialVersionUID = 1L;

  /** An error without a message. */
  public InvalidAttributeFormatException() {
    super();
  }

  /**
   * An error with a message.
   *
   * @param message what went wrong, for a person to read
   */
  public InvalidAttributeFormatException(String message) {
    super(message);
  }
}
