package org.ggf.drmaa;

/** The batch system could not be reached (DRMAA_ERRNO_DRM_COMMUNICATION_FAILURE). */
public class DrmCommunicationException extends DrmaaException {
  private static final long serialVersionUID = 1L;

  /** An error without a message. */
  public DrmCommunicationException() {
    super();
  }

  /**
   * An error with a message.
   *
   * @param message what went wrong, for a person to read
   */
  public DrmCommunicationException(String message) {
    super(message);
  }
}
