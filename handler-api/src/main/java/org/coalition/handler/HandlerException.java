package org.coalition.handler;

/**
 * A batch system call failed. The category says what the daemon may do; the message carries the
 * batch system's own words (HTTP status and error text, tool exit code and stderr).
 */
public class HandlerException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public enum Category {
    /** Unreachable, timed out, or a server error (5xx): nothing known to be done; a read may be retried. */
    UNAVAILABLE(true),
    /** Credentials refused (401, 403, a token the controller rejects): fix the configuration. */
    AUTHENTICATION(false),
    /** The batch system refused the request (a job it will not take, an unknown partition): fix the input. */
    REJECTED(false),
    /** The job or object asked for does not exist (any more). */
    NOT_FOUND(false),
    /** The answer could not be understood (malformed JSON, an unexpected shape or version). */
    PROTOCOL(false),
    /** Anything else. */
    INTERNAL(false);

    private final boolean retryable;

    Category(boolean retryable) {
      this.retryable = retryable;
    }

    /** Whether retrying a read is safe; a submission is retried only when nothing can have been created. */
    public boolean retryable() {
      return retryable;
    }
  }

  private final Category category;

  public HandlerException(Category category, String message) {
    super(message);
    this.category = category;
  }

  public HandlerException(Category category, String message, Throwable cause) {
    super(message, cause);
    this.category = category;
  }

  public Category category() {
    return category;
  }
}
