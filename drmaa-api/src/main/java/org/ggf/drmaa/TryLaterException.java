package org.ggf.drmaa;

/** The batch system is busy; the same call may succeed later (DRMAA_ERRNO_TRY_LATER). */
public class TryLaterException extends DrmaaException {
  private static final long serialVersionUID = 1L;

  /** An error without a message. */
  public TryLaterException() {
    super();
  }

  /**
   * An error with a message.
   *
   * @param message what went wrong, for a person to read
   */
  public TryLaterException(String message) {
    super(message);
  }
}
