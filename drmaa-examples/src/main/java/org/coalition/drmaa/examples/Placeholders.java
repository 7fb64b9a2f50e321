package org.coalition.drmaa.examples;

import java.util.Collections;
import java.util.List;
import org.ggf.drmaa.DrmaaException;
import org.ggf.drmaa.JobTemplate;
import org.ggf.drmaa.Session;
import org.ggf.drmaa.SessionFactory;

/**
 * The template's placeholders: three tasks start in a working directory of their own folder and
 * write {@code $drmaa_wd_ph$/out.$drmaa_incr_ph$} there; one job starts in {@code $drmaa_hd_ph$},
 * the user's home, and writes where it is to {@code home.out}.
 */
public final class Placeholders {
  private Placeholders() {
  }

  /**
   * Runs the flow.
   *
   * @param args a shared folder, the tasks' working directory
   */
  public static void main(String[] args) {
    Session session = SessionFactory.getFactory().getSession();
    try {
      session.init("");
      JobTemplate jt = session.createJobTemplate();
      jt.setRemoteCommand("/bin/sh");
      jt.setArgs(List.of("-c", "echo \"in $(pwd)\""));
      jt.setWorkingDirectory(args[0]);
      jt.setOutputPath(":" + JobTemplate.WORKING_DIRECTORY + "/out." + JobTemplate.PARAMETRIC_INDEX);
      jt.setJoinFiles(true);
      List<String> ids = session.runBulkJobs(jt, 1, 3, 1);
      jt.setArgs(List.of("-c", "pwd"));
      jt.setWorkingDirectory(JobTemplate.HOME_DIRECTORY);
      jt.setOutputPath(":" + args[0] + "/home.out");
      String home = session.runJob(jt);
      session.deleteJobTemplate(jt);
      session.synchronize(Collections.singletonList(Session.JOB_IDS_SESSION_ALL), Session.TIMEOUT_WAIT_FOREVER, true);
      System.out.println("tasks " + ids + " and job " + home + " ended");
      session.exit();
    } catch (DrmaaException e) {
      System.out.println("Error: " + e.getMessage());
      System.exit(1);
    }
  }
}
