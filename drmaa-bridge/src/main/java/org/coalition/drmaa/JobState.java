package org.coalition.drmaa;

/** A job's state as {@code drmaa_job_ps} reports it (DRMAA 1.0 {@code DRMAA_PS_*}, with their codes). */
public enum JobState {
  UNDETERMINED(0x00),
  QUEUED_ACTIVE(0x10),
  SYSTEM_ON_HOLD(0x11),
  USER_ON_HOLD(0x12),
  USER_SYSTEM_ON_HOLD(0x13),
  RUNNING(0x20),
  SYSTEM_SUSPENDED(0x21),
  USER_SUSPENDED(0x22),
  USER_SYSTEM_SUSPENDED(0x23),
  DONE(0x30),
  FAILED(0x40);

  private final int code;

  JobState(int code) {
    this.code = code;
  }

  public int code() {
    return code;
  }

  /** The state of a DRMAA code; an unknown code is {@link #UNDETERMINED}. */
  public static JobState of(int code) {
    for (JobState s : values()) {
      if (s.code == code) {
        return s;
      }
    }
    return UNDETERMINED;
  }
}
