package org.coalition.testbed;

/** A system the test needs is not running: the test fails with this message. */
public final class TestbedNotUpException extends IllegalStateException {
  private static final long serialVersionUID = 1L;

  public TestbedNotUpException(String message) {
    super(message);
  }

  public TestbedNotUpException(String message, Throwable cause) {
    super(message, cause);
  }
}
