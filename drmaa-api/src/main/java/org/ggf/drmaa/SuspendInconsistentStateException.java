package org.ggf.drmaa;

/** The job cannot be suspended in its present state (DRMAA_ERRNO_SUSPEND_INCONSISTENT_STATE). */
public class SuspendInconsistentStateException extends InconsistentStateException {
  private static final long serialVersionUID = 1L;

  /** An error without a message. */
  public SuspendInconsistentStateException() {
    super();
  }

  /**
   * An error with a message.
   *
   * @param message what went wrong, for a person to read
   */
  public SuspendInconsistentStateException(String message) {
    super(message);
  }
}
