package org.coalition.staging;

/**
 * A job's files cannot travel: an input is missing or unreadable, the files exceed a limit, or a
 * directive or a tar is malformed. The message says which, in words for the job's user.
 */
public final class StagingRefused extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public StagingRefused(String message) {
    super(message);
  }

  public StagingRefused(String message, Throwable cause) {
    super(message, cause);
  }
}
