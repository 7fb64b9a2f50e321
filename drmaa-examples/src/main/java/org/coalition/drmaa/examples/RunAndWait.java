package org.coalition.drmaa.examples;

import java.util.List;
import org.ggf.drmaa.DrmaaException;
import org.ggf.drmaa.JobInfo;
import org.ggf.drmaa.JobTemplate;
import org.ggf.drmaa.Session;
import org.ggf.drmaa.SessionFactory;

/**
 * Runs one job and waits for it: the job prints a greeting and its argument, and exits with 7.
 * Prints the implementation, the job's id and how it ended.
 */
public final class RunAndWait {
  private RunAndWait() {
  }

  /**
   * Runs the flow.
   *
   * @param args a shared folder the job writes {@code run.out} to
   */
  public static void main(String[] args) {
    Session session = SessionFactory.getFactory().getSession();
    try {
      session.init("");
      System.out.println("implementation: " + session.getDrmaaImplementation() + " on " + session.getDrmSystem() + ", DRMAA "
          + session.getVersion());
      JobTemplate jt = session.createJobTemplate();
      jt.setRemoteCommand("/bin/sh");
      jt.setArgs(List.of("-c", "echo \"hello from $0\"; exit 7", "a job"));
      jt.setOutputPath(":" + args[0] + "/run.out");
      jt.setJoinFiles(true);
      String id = session.runJob(jt);
      System.out.println("submitted job " + id);
      session.deleteJobTemplate(jt);
      JobInfo info = session.wait(id, Session.TIMEOUT_WAIT_FOREVER);
      if (info.hasExited()) {
        System.out.println("job " + info.getJobId() + " exited with status " + info.getExitStatus());
      } else {
        System.out.println("job " + info.getJobId() + " did not exit normally");
      }
      session.exit();
    } catch (DrmaaException e) {
      System.out.println("Error: " + e.getMessage());
      System.exit(1);
    }
  }
}
