package org.ggf.drmaa;

/** The job template was not made by this session or was already deleted (DRMAA_ERRNO_INVALID_JOB_TEMPLATE). */
public class InvalidJobTemplateException extends DrmaaException {
  private static final long serialVersionUID = 1L;

  /** An error without a message. */
  public InvalidJobTemplateException() {
    super();
  }

  /**
   * An error with a message.
   *
   * @param message what went wrong, for a person to read
   */
  public InvalidJobTemplateException(String message) {
    super(message);
  }
}
