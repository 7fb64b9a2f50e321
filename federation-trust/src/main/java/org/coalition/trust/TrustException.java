package org.coalition.trust;

/** A store, a password file or a certificate that cannot be used; the message names the file and how to fix it. */
public final class TrustException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public TrustException(String message) {
    super(message);
  }

  public TrustException(String message, Throwable cause) {
    super(message, cause);
  }
}
