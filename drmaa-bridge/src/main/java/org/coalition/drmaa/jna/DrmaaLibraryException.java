package org.coalition.drmaa.jna;

/** The DRMAA library could not be found or loaded; the message says how to fix it. */
public final class DrmaaLibraryException extends IllegalStateException {
  private static final long serialVersionUID = 1L;

  DrmaaLibraryException(String message, Throwable cause) {
    super(message, cause);
  }
}
