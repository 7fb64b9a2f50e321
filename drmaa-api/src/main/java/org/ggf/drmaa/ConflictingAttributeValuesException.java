package org.ggf.drmaa;

/** Two job template attributes have values that cannot hold together (DRMAA_ERRNO_CONFLICTING_ATTRIBUTE_VALUES). */
public class ConflictingAttributeValuesException extends InvalidAttributeValueException {
  private static final long serialVersionUID = 1L;

  /** An error without a message. */
  public ConflictingAttributeValuesException() {
    super();
  }

  /**
   * An error with a message.
   *
   * @param message what went wrong, for a person to read
   */
  public ConflictingAttributeValuesException(String message) {
    super(message);
  }
}
