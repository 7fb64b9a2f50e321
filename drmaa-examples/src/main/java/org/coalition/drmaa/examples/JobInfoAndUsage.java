package org.coalition.drmaa.examples;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.ggf.drmaa.DrmaaException;
import org.ggf.drmaa.JobInfo;
import org.ggf.drmaa.JobTemplate;
import org.ggf.drmaa.Session;
import org.ggf.drmaa.SessionFactory;

/**
 * Reads how jobs ended: one that exits with 3 after some work, one that kills itself with
 * SIGKILL. Prints what {@link JobInfo} says of each and the first job's resource usage.
 */
public final class JobInfoAndUsage {
  private JobInfoAndUsage() {
  }

  /**
   * Runs the flow.
   *
   * @param args a shared folder for the jobs' output
   */
  public static void main(String[] args) {
    Session session = SessionFactory.getFactory().getSession();
    try {
      session.init("");
      JobTemplate jt = session.createJobTemplate();
      jt.setRemoteCommand("/bin/sh");
      jt.setOutputPath(":" + args[0] + "/info.out");
      jt.setJoinFiles(true);
      jt.setArgs(List.of("-c", "i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done; exit 3"));
      JobInfo worked = session.wait(session.runJob(jt), Session.TIMEOUT_WAIT_FOREVER);
      describe("worked", worked);
      Map<String, String> usage = new TreeMap<>(worked.getResourceUsage());
      System.out.println("worked: resource usage " + usage);
      jt.setArgs(List.of("-c", "kill -KILL $$"));
      describe("killed", session.wait(session.runJob(jt), Session.TIMEOUT_WAIT_FOREVER));
      session.deleteJobTemplate(jt);
      session.exit();
    } catch (DrmaaException e) {
      System.out.println("Error: " + e.getMessage());
      System.exit(1);
    }
  }

  private static void describe(String name, JobInfo info) throws DrmaaException {
    StringBuilder b = new StringBuilder(name + ": ");
    if (info.wasAborted()) {
      b.append("aborted, never ran");
    } else if (info.hasExited()) {
      b.append("exited with status ").append(info.getExitStatus());
    } else if (info.hasSignaled()) {
      b.append("killed by ").append(info.getTerminatingSignal()).append(info.hasCoreDump() ? ", core dumped" : "");
    } else {
      b.append("ended, how is not known");
    }
    System.out.println(b);
  }
}
