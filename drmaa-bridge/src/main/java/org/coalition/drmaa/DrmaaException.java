package org.coalition.drmaa;

/**
 * A DRMAA call failed. Every error code of DRMAA 1.0 has its own subclass, so callers catch what
 * they can handle ({@link TryLaterException}, {@link ExitTimeoutException}, {@link InvalidJobException}...);
 * the message is the library's own diagnosis, prefixed with the call that failed.
 */
public abstract class DrmaaException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final int code;

  protected DrmaaException(int code, String message) {
    super(message);
    this.code = code;
  }

  /** The DRMAA 1.0 error code ({@code DRMAA_ERRNO_*}). */
  public int code() {
    return code;
  }

  /** The exception for {@code code}, carrying {@code message}. */
  public static DrmaaException of(int code, String message) {
    return switch (code) {
      case 1 -> new InternalException(message);
      case 2 -> new DrmCommunicationException(message);
      case 3 -> new AuthorizationException(message);
      case 4 -> new InvalidArgumentException(message);
      case 5 -> new NoActiveSessionException(message);
      case 6 -> new OutOfMemoryException(message);
      case 7 -> new InvalidContactStringException(message);
      case 8 -> new DefaultContactStringException(message);
      case 9 -> new NoDefaultContactStringSelectedException(message);
      case 10 -> new DrmsInitException(message);
      case 11 -> new AlreadyActiveSessionException(message);
      case 12 -> new DrmsExitException(message);
      case 13 -> new InvalidAttributeFormatException(message);
      case 14 -> new InvalidAttributeValueException(message);
      case 15 -> new ConflictingAttributeValuesException(message);
      case 16 -> new TryLaterException(message);
      case 17 -> new DeniedByDrmException(message);
      case 18 -> new InvalidJobException(message);
      case 19, 20, 21, 22 -> new InconsistentStateException(code, message);
      case 23 -> new ExitTimeoutException(message);
      case 24 -> new NoResourceUsageException(message);
      default -> new InternalException("DRMAA error code " + code + ": " + message);
    };
  }

  /** DRMAA_ERRNO_INTERNAL_ERROR, or a code DRMAA 1.0 does not define. */
  public static final class InternalException extends DrmaaException {
    private static final long serialVersionUID = 1L;

    public InternalException(String message) {
      super(1, message);
    }
  }

  /** DRMAA_ERRNO_DRM_COMMUNICATION_FAILURE: the batch system did not answer; retrying may work. */
  public static final class DrmCommunicationException extends DrmaaException {
    private static final long serialVersionUID = 1L;

    public DrmCommunicationException(String message) {
      super(2, message);
    }
  }

  /** DRMAA_ERRNO_AUTH_FAILURE. */
  public static final class AuthorizationException extends DrmaaException {
    private static final long serialVersionUID = 1L;

    public AuthorizationException(String message) {
      super(3, message);
    }
  }

  /** DRMAA_ERRNO_INVALID_ARGUMENT. */
  public static final class InvalidArgumentException extends DrmaaException {
    private static final long serialVersionUID = 1L;

    public InvalidArgumentException(String message) {
      super(4, message);
    }
  }

  /** DRMAA_ERRNO_NO_ACTIVE_SESSION: {@code init} first. */
  public static final class NoActiveSessionException extends DrmaaException {
    private static final long serialVersionUID = 1L;

    public NoActiveSessionException(String message) {
      super(5, message);
    }
  }

  /** DRMAA_ERRNO_NO_MEMORY. */
  public static final class OutOfMemoryException extends DrmaaException {
    private static final long serialVersionUID = 1L;

    public OutOfMemoryException(String message) {
      super(6, message);
    }
  }

  /** DRMAA_ERRNO_INVALID_CONTACT_STRING. */
  public static final class InvalidContactStringException extends DrmaaException {
    private static final long serialVersionUID = 1L;

    public InvalidContactStringException(String message) {
      super(7, message);
    }
  }

  /** DRMAA_ERRNO_DEFAULT_CONTACT_STRING_ERROR. */
  public static final class DefaultContactStringException extends DrmaaException {
    private static final long serialVersionUID = 1L;

    public DefaultContactStringException(String message) {
      super(8, message);
    }
  }

  /** DRMAA_ERRNO_NO_DEFAULT_CONTACT_STRING_SELECTED. */
  public static final class NoDefaultContactStringSelectedException extends DrmaaException {
    private static final long serialVersionUID = 1L;

    public NoDefaultContactStringSelectedException(String message) {
      super(9, message);
    }
  }

  /** DRMAA_ERRNO_DRMS_INIT_FAILED: the batch system could not be reached at {@code init}. */
  public static final class DrmsInitException extends DrmaaException {
    private static final long serialVersionUID = 1L;

    public DrmsInitException(String message) {
      super(10, message);
    }
  }

  /** DRMAA_ERRNO_ALREADY_ACTIVE_SESSION: one session per process, as DRMAA 1.0 says. */
  public static final class AlreadyActiveSessionException extends DrmaaException {
    private static final long serialVersionUID = 1L;

    public AlreadyActiveSessionException(String message) {
      super(11, message);
    }
  }

  /** DRMAA_ERRNO_DRMS_EXIT_ERROR. */
  public static final class DrmsExitException extends DrmaaException {
    private static final long serialVersionUID = 1L;

    public DrmsExitException(String message) {
      super(12, message);
    }
  }

  /** DRMAA_ERRNO_INVALID_ATTRIBUTE_FORMAT. */
  public static final class InvalidAttributeFormatException extends DrmaaException {
    private static final long serialVersionUID = 1L;

    public InvalidAttributeFormatException(String message) {
      super(13, message);
    }
  }

  /** DRMAA_ERRNO_INVALID_ATTRIBUTE_VALUE. */
  public static final class InvalidAttributeValueException extends DrmaaException {
    private static final long serialVersionUID = 1L;

    public InvalidAttributeValueException(String message) {
      super(14, message);
    }
  }

  /** DRMAA_ERRNO_CONFLICTING_ATTRIBUTE_VALUES. */
  public static final class ConflictingAttributeValuesException extends DrmaaException {
    private static final long serialVersionUID = 1L;

    public ConflictingAttributeValuesException(String message) {
      super(15, message);
    }
  }

  /** DRMAA_ERRNO_TRY_LATER: the batch system is busy; the same call may succeed later. */
  public static final class TryLaterException extends DrmaaException {
    private static final long serialVersionUID = 1L;

    public TryLaterException(String message) {
      super(16, message);
    }
  }

  /** DRMAA_ERRNO_DENIED_BY_DRM: the batch system refused the job (its policy, a bad request). */
  public static final class DeniedByDrmException extends DrmaaException {
    private static final long serialVersionUID = 1L;

    public DeniedByDrmException(String message) {
      super(17, message);
    }
  }

  /** DRMAA_ERRNO_INVALID_JOB: no such job (any more). */
  public static final class InvalidJobException extends DrmaaException {
    private static final long serialVersionUID = 1L;

    public InvalidJobException(String message) {
      super(18, message);
    }
  }

  /** DRMAA_ERRNO_{RESUME,SUSPEND,HOLD,RELEASE}_INCONSISTENT_STATE: the job is not in a state the action applies to. */
  public static final class InconsistentStateException extends DrmaaException {
    private static final long serialVersionUID = 1L;

    public InconsistentStateException(int code, String message) {
      super(code, message);
    }
  }

  /** DRMAA_ERRNO_EXIT_TIMEOUT: {@code wait} or {@code synchronize} timed out before the job(s) ended. */
  public static final class ExitTimeoutException extends DrmaaException {
    private static final long serialVersionUID = 1L;

    public ExitTimeoutException(String message) {
      super(23, message);
    }
  }

  /** DRMAA_ERRNO_NO_RUSAGE: the job ended but its resource usage is not known. */
  public static final class NoResourceUsageException extends DrmaaException {
    private static final long serialVersionUID = 1L;

    public NoResourceUsageException(String message) {
      super(24, message);
    }
  }
}
