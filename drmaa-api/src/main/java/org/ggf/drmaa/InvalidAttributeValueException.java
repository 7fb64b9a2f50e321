package org.ggf.drmaa;

/** A job template attribute was given a value it cannot take (DRMAA_ERRNO_INVALID_ATTRIBUTE_VALUE). */
public class InvalidAttributeValueException extends DrmaaException {
  private static final long serialVersionUID = 1L;

  /** An error without a message. */
  public InvalidAttributeValueException() {
    super();
  }

  /**
   * An error with a message.
   *
   * @param message what went wrong, for a person to read
   */
  public InvalidAttributeValueException(String message) {
    super(message);
  }
}
