package org.ggf.drmaa;

/** The job cannot be released in its present state (DRMAA_ERRNO_RELEASE_INCONSISTENT_STATE). */
public class ReleaseInconsistentStateException extends InconsistentStateException {
  private static final long serialVersionUID = 1L;

  /** An error without a message. */
  public ReleaseInconsistentStateException() {
    super();
  }

  /**
   * An error with a message.
   *
   * @param message what went wrong, for a person to read
   */
  public ReleaseInconsistentStateException(String message) {
    super(message);
  }
}
