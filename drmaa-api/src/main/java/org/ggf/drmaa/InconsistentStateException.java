package org.ggf.drmaa;

/** A {@code control} action does not fit the job's present state; one subclass per action. */
public abstract class InconsistentStateException extends DrmaaException {
  private static final long serialVersionUID = 1L;

  /** An error without a message. */
  public InconsistentStateException() {
    super();
  }

  /**
   * An error with a message.
   *
   * @param message what went wrong, for a person to read
   */
  public InconsistentStateException(String message) {
    super(message);
  }
}
