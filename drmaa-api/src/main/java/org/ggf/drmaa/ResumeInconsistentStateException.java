package org.ggf.drmaa;

/** The job cannot be resumed in its present state (DRMAA_ERRNO_RESUME_INCONSISTENT_STATE). */
public class ResumeInconsistentStateException extends InconsistentStateException {
  private static final long serialVersionUID = 1L;

  /** An error without a message. */
  public ResumeInconsistentStateException() {
    super();
  }

  /**
   * An error with a message.
   *
   * @param message what went wrong, for a person to read
   */
  public ResumeInconsistentStateException(String message) {
    super(message);
  }
}
