package org.ggf.drmaa;

/** The job id names no job this session knows (DRMAA_ERRNO_INVALID_JOB). */
public class InvalidJobException extends DrmaaException {
  private static final long serialVersionUID = 1L;

  /** An error without a message. */
  public InvalidJobException() {
    super();
  }

  /**
   * An error with a message.
   *
   * @param message what went wrong, for a person to read
   */
  public InvalidJobException(String message) {
    super(message);
  }
}
