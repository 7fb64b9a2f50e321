package org.ggf.drmaa;

/** The root of every checked error a DRMAA call reports (the C binding's non-zero error codes). */
public abstract class DrmaaException extends Exception {
  private static final long serialVersionUID = 1L;

  /** An error without a message. */
  public DrmaaException() {
    super();
  }

  /**
   * An error with a message.
   *
   * @param message what went wrong, for a person to read
   */
  public DrmaaException(String message) {
    super(message);
  }
}
