package org.ggf.drmaa;

/** An unexpected failure inside the DRMAA implementation (DRMAA_ERRNO_INTERNAL_ERROR). */
public class InternalException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** An error without a message. */
  public InternalException() {
    super();
  }

  /**
   * An error with a message.
   *
   * @param message what went wrong, for a person to read
   */
  public InternalException(String message) {
    super(message);
  }
}
