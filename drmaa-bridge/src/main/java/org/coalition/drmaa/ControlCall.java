package org.coalition.drmaa;

import org.ggf.drmaa.Session;

/** A {@code control} call as both back ends name it in messages, its action checked. */
public final class ControlCall {
  private static final String[] ACTIONS = {"SUSPEND", "RESUME", "HOLD", "RELEASE", "TERMINATE"};

  private ControlCall() {
  }

  /**
   * The call's name, {@code drmaa_control(ID, ACTION)}.
   *
   * @param jobId the job
   * @param action one of {@link Session#SUSPEND} ... {@link Session#TERMINATE}
   * @return the name
   * @throws IllegalArgumentException when the action is none of them
   */
  public static String describe(String jobId, int action) {
    if (action < Session.SUSPEND || action > Session.TERMINATE) {
      throw new IllegalArgumentException("drmaa_control: action " + action + " is none of SUSPEND (0) ... TERMINATE (4)");
    }
    return "drmaa_control(" + jobId + ", " + ACTIONS[action] + ")";
  }
}
