package org.coalition.drmaa.examples;

import java.util.Collections;
import java.util.List;
import org.ggf.drmaa.DrmaaException;
import org.ggf.drmaa.JobInfo;
import org.ggf.drmaa.JobTemplate;
import org.ggf.drmaa.Session;
import org.ggf.drmaa.SessionFactory;

/**
 * Submits a bulk job of tasks 1 to 6, each writing to a file named after its index
 * ({@link JobTemplate#PARAMETRIC_INDEX}, which the standard expands in paths only); waits for all of them with {@code synchronize}, then
 * reaps each one. Prints each task's id and exit status.
 */
public final class BulkJobs {
  private BulkJobs() {
  }

  /**
   * Runs the flow.
   *
   * @param args a shared folder the tasks write {@code task.N} to
   */
  public static void main(String[] args) {
    Session session = SessionFactory.getFactory().getSession();
    try {
      session.init("");
      JobTemplate jt = session.createJobTemplate();
      jt.setRemoteCommand("/bin/sh");
      jt.setArgs(List.of("-c", "echo task done")); // the index is for paths only: each task's output names it
      jt.setOutputPath(":" + args[0] + "/task." + JobTemplate.PARAMETRIC_INDEX);
      jt.setJoinFiles(true);
      List<String> ids = session.runBulkJobs(jt, 1, 6, 1);
      System.out.println("submitted " + ids.size() + " tasks");
      session.deleteJobTemplate(jt);
      session.synchronize(Collections.singletonList(Session.JOB_IDS_SESSION_ALL), Session.TIMEOUT_WAIT_FOREVER, false);
      System.out.println("all tasks ended");
      for (String id : ids) {
        JobInfo info = session.wait(id, Session.TIMEOUT_NO_WAIT);
        System.out.println("task " + id + " exited with status " + info.getExitStatus());
      }
      session.exit();
    } catch (DrmaaException e) {
      System.out.println("Error: " + e.getMessage());
      System.exit(1);
    }
  }
}
