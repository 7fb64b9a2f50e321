package org.coalition.drmaa;

import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;
import org.ggf.drmaa.Session;

/**
 * The job ids and timeouts a program passes, checked before a batch system sees them, as Grid
 * Engine's binding (the standard's reference) checks them: a null id is
 * {@link NullPointerException} ("The job id may not be null"), an id not in the batch system's
 * form {@link IllegalArgumentException} ("is not a valid job id"), a negative timeout other than
 * {@code TIMEOUT_WAIT_FOREVER} {@link IllegalArgumentException}. A well-formed id the batch system
 * does not know is the back end's to answer ({@code InvalidJobException}). Measured against Grid
 * Engine 8.1.9's binding on 2026-12-02: drmaa-bridge/README.md, "Misuse".
 */
public final class JobIds {
  private JobIds() {
  }

  /**
   * A job id, not null.
   *
   * @param call the call, for the message
   * @param jobId the id
   * @return {@code jobId}
   * @throws NullPointerException when it is null
   */
  public static String notNull(String call, String jobId) {
    return Objects.requireNonNull(jobId, () -> call + ": the job id may not be null");
  }

  /**
   * Job ids, the list and each not null.
   *
   * @param call the call, for the message
   * @param jobIds the ids
   * @return {@code jobIds}
   * @throws NullPointerException when the list or an id is null
   */
  public static List<String> notNull(String call, List<String> jobIds) {
    Objects.requireNonNull(jobIds, () -> call + ": the list of job ids may not be null");
    jobIds.forEach(id -> notNull(call, id));
    return jobIds;
  }

  /**
   * A job id in the batch system's form, or the one constant of the session's the call takes
   * ({@code JOB_IDS_SESSION_ALL} for {@code control} and {@code synchronize},
   * {@code JOB_IDS_SESSION_ANY} for {@code wait}).
   *
   * @param call the call, for the message
   * @param jobId the id
   * @param form the batch system's ids
   * @param example an id of that form, for the message
   * @param constant the session's constant the call takes, or null for none
   * @return {@code jobId}
   * @throws NullPointerException when it is null
   * @throws IllegalArgumentException when it is neither
   */
  public static String inForm(String call, String jobId, Pattern form, String example, String constant) {
    notNull(call, jobId);
    if (!form.matcher(jobId).matches() && !jobId.equals(constant)) {
      throw new IllegalArgumentException(call + ": job id \"" + jobId + "\" is not a valid job id (one like " + example + ")");
    }
    return jobId;
  }

  /**
   * A timeout in seconds: at least 0, or {@code TIMEOUT_WAIT_FOREVER} (-1).
   *
   * @param call the call, for the message
   * @param seconds the timeout
   * @return {@code seconds}
   * @throws IllegalArgumentException when it is below -1
   */
  public static long timeout(String call, long seconds) {
    if (seconds < Session.TIMEOUT_WAIT_FOREVER) {
      throw new IllegalArgumentException(call + ": a timeout is a number of seconds, TIMEOUT_NO_WAIT (0) or TIMEOUT_WAIT_FOREVER (-1), not "
          + seconds);
    }
    return seconds;
  }
}
