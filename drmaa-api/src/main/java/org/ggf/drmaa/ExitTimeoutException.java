package org.ggf.drmaa;

/** A {@code wait} or {@code synchronize} ran out of time before the jobs ended (DRMAA_ERRNO_EXIT_TIMEOUT). */
public class ExitTimeoutException extends DrmaaException {
  private static final long serialVersionUID = 1L;

  /** An error without a message. */
  public ExitTimeoutException() {
    super();
  }

  /**
   * An error with a message.
   *
   * @param message what went wrong, for a person to read
   */
  public ExitTimeoutException(String message) {
    super(message);
  }
}
