package org.coalition.drmaa;

import org.ggf.drmaa.AlreadyActiveSessionException;
import org.ggf.drmaa.AuthorizationException;
import org.ggf.drmaa.ConflictingAttributeValuesException;
import org.ggf.drmaa.DefaultContactStringException;
import org.ggf.drmaa.DeniedByDrmException;
import org.ggf.drmaa.DrmCommunicationException;
import org.ggf.drmaa.DrmaaException;
import org.ggf.drmaa.DrmsExitException;
import org.ggf.drmaa.DrmsInitException;
import org.ggf.drmaa.ExitTimeoutException;
import org.ggf.drmaa.HoldInconsistentStateException;
import org.ggf.drmaa.InternalException;
import org.ggf.drmaa.InvalidAttributeFormatException;
import org.ggf.drmaa.InvalidAttributeValueException;
import org.ggf.drmaa.InvalidContactStringException;
import org.ggf.drmaa.InvalidJobException;
import org.ggf.drmaa.NoActiveSessionException;
import org.ggf.drmaa.NoDefaultContactStringException;
import org.ggf.drmaa.ReleaseInconsistentStateException;
import org.ggf.drmaa.ResumeInconsistentStateException;
import org.ggf.drmaa.SuspendInconsistentStateException;
import org.ggf.drmaa.TryLaterException;

/**
 * The DRMAA 1.0 C error codes ({@code DRMAA_ERRNO_*}) and the standard Java exception of each,
 * one to one, as the Java binding maps them: an invalid argument is an
 * {@link IllegalArgumentException}, no memory an {@link OutOfMemoryError}, an internal error the
 * unchecked {@link InternalException}, every other code its own {@link DrmaaException}.
 */
public final class ErrorCodes {
  /** DRMAA_ERRNO_SUCCESS. */
  public static final int SUCCESS = 0;
  /** DRMAA_ERRNO_NO_RUSAGE: the job ended, its resource usage is unknown. */
  public static final int NO_RUSAGE = 24;
  /** DRMAA_ERRNO_NO_MORE_ELEMENTS: the end of a C list. */
  public static final int NO_MORE_ELEMENTS = 25;

  private ErrorCodes() {
  }

  /**
   * Throws the exception of a non-zero code.
   *
   * @param code the C call's return value
   * @param message what failed, for a person: the call and the library's own diagnosis
   * @throws DrmaaException the checked exception of the code
   */
  public static void raise(int code, String message) throws DrmaaException {
    switch (code) {
      case 1 -> throw new InternalException(message);
      case 2 -> throw new DrmCommunicationException(message);
      case 3 -> throw new AuthorizationException(message);
      case 4 -> throw new IllegalArgumentException(message);
      case 5 -> throw new NoActiveSessionException(message);
      case 6 -> throw new OutOfMemoryError(message);
      case 7 -> throw new InvalidContactStringException(message);
      case 8 -> throw new DefaultContactStringException(message);
      case 9 -> throw new NoDefaultContactStringException(message);
      case 10 -> throw new DrmsInitException(message);
      case 11 -> throw new AlreadyActiveSessionException(message);
      case 12 -> throw new DrmsExitException(message);
      case 13 -> throw new InvalidAttributeFormatException(message);
      case 14 -> throw new InvalidAttributeValueException(message);
      case 15 -> throw new ConflictingAttributeValuesException(message);
      case 16 -> throw new TryLaterException(message);
      case 17 -> throw new DeniedByDrmException(message);
      case 18 -> throw new InvalidJobException(message);
      case 19 -> throw new ResumeInconsistentStateException(message);
      case 20 -> throw new SuspendInconsistentStateException(message);
      case 21 -> throw new HoldInconsistentStateException(message);
      case 22 -> throw new ReleaseInconsistentStateException(message);
      case 23 -> throw new ExitTimeoutException(message);
      default -> throw new InternalException("DRMAA error code " + code + ": " + message);
    }
  }
}
