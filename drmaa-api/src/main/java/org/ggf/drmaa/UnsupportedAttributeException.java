package org.ggf.drmaa;

/** The job template attribute is optional and this implementation does not support it. */
public class UnsupportedAttributeException extends DrmaaException {
  private static final long serialVersionUID = 1L;

  /** An error without a message. */
  public UnsupportedAttributeException() {
    super();
  }

  /**
   * An error with a message.
   *
   * @param message what went wrong, for a person to read
   */
  public UnsupportedAttributeException(String message) {
    super(message);
  }
}
