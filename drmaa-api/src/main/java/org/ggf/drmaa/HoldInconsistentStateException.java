package org.ggf.drmaa;

/** The job cannot be held in its present state (DRMAA_ERRNO_HOLD_INCONSISTENT_STATE). */
public class HoldInconsistentStateException extends InconsistentStateException {
  private static final long serialVersionUID = 1L;

  /** An error without a message. */
  public HoldInconsistentStateException() {
    super();
  }

  /**
   * An error with a message.
   *
   * @param message what went wrong, for a person to read
   */
  public HoldInconsistentStateException(String message) {
    super(message);
  }
}
