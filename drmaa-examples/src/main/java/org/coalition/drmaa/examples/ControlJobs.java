package org.coalition.drmaa.examples;

import java.util.List;
import org.ggf.drmaa.DrmaaException;
import org.ggf.drmaa.JobInfo;
import org.ggf.drmaa.JobTemplate;
import org.ggf.drmaa.Session;
import org.ggf.drmaa.SessionFactory;

/**
 * Controls jobs: one submitted on hold is released and runs; a long one is suspended, resumed
 * and terminated. Prints the state after each action, by the standard's names.
 */
public final class ControlJobs {
  private ControlJobs() {
  }

  /**
   * Runs the flow.
   *
   * @param args a shared folder for the jobs' output
   * @throws InterruptedException when interrupted while polling a job's state
   */
  public static void main(String[] args) throws InterruptedException {
    Session session = SessionFactory.getFactory().getSession();
    try {
      session.init("");
      JobTemplate jt = session.createJobTemplate();
      jt.setRemoteCommand("/bin/sh");
      jt.setArgs(List.of("-c", "echo released"));
      jt.setOutputPath(":" + args[0] + "/held.out");
      jt.setJobSubmissionState(JobTemplate.HOLD_STATE);
      String held = session.runJob(jt);
      System.out.println("submitted on hold: " + name(session.getJobProgramStatus(held)));
      session.control(held, Session.RELEASE);
      JobInfo released = session.wait(held, Session.TIMEOUT_WAIT_FOREVER);
      System.out.println("released, then exited with status " + released.getExitStatus());

      jt.setArgs(List.of("-c", "sleep 600"));
      jt.setOutputPath(":" + args[0] + "/long.out");
      jt.setJobSubmissionState(JobTemplate.ACTIVE_STATE);
      String id = session.runJob(jt);
      session.deleteJobTemplate(jt);
      waitFor(session, id, Session.RUNNING);
      System.out.println("running: " + name(session.getJobProgramStatus(id)));
      session.control(id, Session.SUSPEND);
      waitFor(session, id, Session.USER_SUSPENDED);
      System.out.println("suspended: " + name(session.getJobProgramStatus(id)));
      session.control(id, Session.RESUME);
      waitFor(session, id, Session.RUNNING);
      System.out.println("resumed: " + name(session.getJobProgramStatus(id)));
      session.control(id, Session.TERMINATE);
      JobInfo info = session.wait(id, Session.TIMEOUT_WAIT_FOREVER);
      System.out.println("terminated: exited " + info.hasExited() + ", signaled " + info.hasSignaled() + ", aborted " + info.wasAborted());
      session.exit();
    } catch (DrmaaException e) {
      System.out.println("Error: " + e.getMessage());
      System.exit(1);
    }
  }

  private static void waitFor(Session session, String id, int state) throws DrmaaException, InterruptedException {
    for (int i = 0; i < 600 && session.getJobProgramStatus(id) != state; i++) {
      Thread.sleep(200);
    }
  }

  private static String name(int state) {
    return switch (state) {
      case Session.QUEUED_ACTIVE -> "QUEUED_ACTIVE";
      case Session.SYSTEM_ON_HOLD -> "SYSTEM_ON_HOLD";
      case Session.USER_ON_HOLD -> "USER_ON_HOLD";
      case Session.USER_SYSTEM_ON_HOLD -> "USER_SYSTEM_ON_HOLD";
      case Session.RUNNING -> "RUNNING";
      case Session.SYSTEM_SUSPENDED -> "SYSTEM_SUSPENDED";
      case Session.USER_SUSPENDED -> "USER_SUSPENDED";
      case Session.USER_SYSTEM_SUSPENDED -> "USER_SYSTEM_SUSPENDED";
      case Session.DONE -> "DONE";
      case Session.FAILED -> "FAILED";
      default -> "UNDETERMINED";
    };
  }
}
