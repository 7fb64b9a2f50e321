package org.coalition.drmaa;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.coalition.testbed.Eventually;
import org.ggf.drmaa.AlreadyActiveSessionException;
import org.ggf.drmaa.DrmaaException;
import org.ggf.drmaa.ExitTimeoutException;
import org.ggf.drmaa.InvalidJobException;
import org.ggf.drmaa.InvalidJobTemplateException;
import org.ggf.drmaa.JobInfo;
import org.ggf.drmaa.JobTemplate;
import org.ggf.drmaa.PartialTimestamp;
import org.ggf.drmaa.Session;
import org.ggf.drmaa.SimpleJobTemplate;
import org.ggf.drmaa.UnsupportedAttributeException;
import org.ggf.drmaa.Version;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The DRMAA 1.0 conformance suite, written against the standard Java binding ({@code org.ggf.drmaa}):
 * what any {@link Session} must do against a real batch system. One subclass per back end
 * supplies a session and a folder its jobs can write to; the tests are the same for all. Shipped
 * in drmaa-bridge's test jar so that other modules' back ends run it too (condor-handler's
 * session over HTCondor's tools). The standard's misuse cases are {@link SessionMisuse}'s.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class SessionConformance implements SessionMisuse {
  /** Longest a test waits for one job, in seconds (the testbed's systems start a job within seconds). */
  protected static final long JOB_WAIT = 120;
  private Session session;
  private Path dir;

  /**
   * The back end's session, not yet initialised.
   *
   * @return it
   */
  protected abstract Session newSession();

  /**
   * A folder of the back end's shared file system; the suite makes a world-writable one inside.
   *
   * @return it
   */
  protected abstract Path jobsFolder();

  /**
   * How the back end names its batch system: the start of {@link Session#getDrmSystem()}.
   *
   * @return the prefix
   */
  protected abstract String drmSystemPrefix();

  /**
   * A native specification that keeps a job queued, neither held nor started, for longer than a
   * test lasts: requirements no machine meets (a start time in the future will not do: Grid Engine
   * reports that as a system hold).
   *
   * @return the specification, in the back end's language
   */
  protected abstract String stayQueuedSpecification();

  @BeforeAll
  void open() throws Exception {
    dir = Files.createTempDirectory(jobsFolder(), "drmaa");
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
    session = newSession();
    session.init("");
  }

  @AfterAll
  void close() throws DrmaaException {
    if (session != null) {
      session.control(Session.JOB_IDS_SESSION_ALL, Session.TERMINATE);
      session.exit();
    }
  }

  @Override
  public Session session() {
    return session;
  }

  @Override
  public Path dir() {
    return dir;
  }

  /**
   * A template that runs {@code script} with {@code /bin/sh -c}, standard output and error joined into {@code out}.
   *
   * @param script the script
   * @param out the output file
   * @return the template
   * @throws DrmaaException when the session refuses it
   */
  @Override
  public JobTemplate shell(String script, Path out) throws DrmaaException {
    JobTemplate t = session.createJobTemplate();
    t.setRemoteCommand("/bin/sh");
    t.setArgs(List.of("-c", script));
    t.setOutputPath(":" + out);
    t.setJoinFiles(true);
    t.setJobName("coalition-drmaa");
    return t;
  }

  @Test
  void theImplementationDescribesItself() throws DrmaaException {
    assertEquals(new Version(1, 0), session.getVersion());
    assertTrue(session.getDrmSystem().startsWith(drmSystemPrefix()), session.getDrmSystem());
    assertFalse(session.getDrmaaImplementation().isEmpty());
    assertFalse(session.getContact().isEmpty());
    System.out.println("[drmaa] " + getClass().getSimpleName() + ": DRMAA " + session.getVersion() + ", system " + session.getDrmSystem()
        + ", implementation " + session.getDrmaaImplementation() + ", contact " + session.getContact() + ", attributes "
        + session.createJobTemplate().getAttributeNames());
  }

  @Test
  void aJobRunsWithItsArgumentsAndEnvironmentAndIsReapedOnce() throws Exception {
    Path out = dir.resolve("one.out");
    JobTemplate t = shell("", out);
    t.setArgs(List.of("-c", "echo \"hello $COALITION_TEST\" \"$0\"; exit 3", "two words, $$, $(x) and $ENV(HOME) as they are"));
    t.setJobEnvironment(Map.of("COALITION_TEST", "yes"));
    String id = session.runJob(t);
    JobInfo info = session.wait(id, JOB_WAIT);
    assertEquals(id, info.getJobId());
    assertTrue(info.hasExited(), info.toString());
    assertEquals(3, info.getExitStatus());
    assertFalse(info.hasSignaled() || info.wasAborted(), info.toString());
    assertEquals("hello yes two words, $$, $(x) and $ENV(HOME) as they are\n", Files.readString(out),
        "the job saw its environment and its arguments unsplit and unexpanded");
    assertThrows(InvalidJobException.class, () -> session.wait(id, Session.TIMEOUT_NO_WAIT), "a job is reaped once");
  }

  @Test
  void aJobsResourceUsageComesWithItsEnd() throws Exception {
    JobInfo info = session.wait(session.runJob(shell("i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done", dir.resolve("usage.out"))), JOB_WAIT);
    Map<String, String> usage = info.getResourceUsage();
    System.out.println("[drmaa] " + getClass().getSimpleName() + " resource usage: " + usage);
    assertFalse(usage.isEmpty(), "the batch system reports what the job used");
    String wall = usage.getOrDefault("ru_wallclock", usage.get("wallclock"));
    assertTrue(wall != null && Double.parseDouble(wall) >= 0, "a wall-clock time among " + usage);
  }

  @Test
  void aStartTimeInThePastMeansNow() throws Exception {
    Path out = dir.resolve("started.out");
    JobTemplate t = shell("echo started", out);
    PartialTimestamp start = new PartialTimestamp();
    start.setTimeInMillis(System.currentTimeMillis() - 3_600_000); // every field set: an hour ago
    t.setStartTime(start);
    assertEquals(0, session.wait(session.runJob(t), JOB_WAIT).getExitStatus());
    assertEquals("started\n", Files.readString(out));
  }

  @Test
  void theWorkingDirectoryAndTheErrorPathAreHonoured() throws Exception {
    Path wd = Files.createDirectory(dir.resolve("wd"));
    Files.setPosixFilePermissions(wd, PosixFilePermissions.fromString("rwxrwxrwx"));
    JobTemplate t = session.createJobTemplate();
    t.setRemoteCommand("/bin/sh");
    t.setArgs(List.of("-c", "pwd; echo oops >&2"));
    t.setWorkingDirectory(wd.toString());
    t.setOutputPath(":" + JobTemplate.WORKING_DIRECTORY + "/o");
    t.setErrorPath(":" + wd.resolve("e"));
    JobInfo info = session.wait(session.runJob(t), JOB_WAIT);
    assertEquals(0, info.getExitStatus(), info.toString());
    assertEquals(wd + "\n", Files.readString(wd.resolve("o")), "the working directory placeholder is the job's working directory");
    assertEquals("oops\n", Files.readString(wd.resolve("e")));
    session.deleteJobTemplate(t);
  }

  @Test
  void aJobSubmittedOnHoldWaitsUntilReleased() throws DrmaaException {
    JobTemplate t = shell("exit 0", dir.resolve("held.out"));
    t.setJobSubmissionState(JobTemplate.HOLD_STATE);
    String id = session.runJob(t);
    assertEquals(Session.USER_ON_HOLD, session.getJobProgramStatus(id));
    assertThrows(ExitTimeoutException.class, () -> session.wait(id, 2));
    session.control(id, Session.RELEASE);
    assertEquals(0, session.wait(id, JOB_WAIT).getExitStatus());
  }

  @Test
  void aQueuedJobIsHeldAndReleasedByControl() throws DrmaaException {
    // A job that waits in the queue for a reason other than a hold, so nothing can start it between
    // the two controls: a hold that does nothing leaves it QUEUED_ACTIVE and fails the first wait.
    JobTemplate t = shell("exit 0", dir.resolve("control-held.out"));
    t.setNativeSpecification(stayQueuedSpecification());
    String id = session.runJob(t);
    assertEquals(Session.QUEUED_ACTIVE, session.getJobProgramStatus(id), "the job waits in the queue");
    session.control(id, Session.HOLD);
    waitForState(id, Session.USER_ON_HOLD, "held");
    session.control(id, Session.RELEASE);
    waitForState(id, Session.QUEUED_ACTIVE, "released");
    session.control(id, Session.TERMINATE);
    JobInfo info = session.wait(id, JOB_WAIT);
    assertFalse(info.hasExited() && info.getExitStatus() == 0, "a job that could not start did not end well: " + info);
  }

  @Test
  void aRunningJobIsSuspendedResumedAndTerminated() throws DrmaaException {
    String id = session.runJob(shell("sleep 300", dir.resolve("killed.out")));
    waitForState(id, Session.RUNNING, "running");
    session.control(id, Session.SUSPEND);
    waitForState(id, Session.USER_SUSPENDED, "suspended");
    session.control(id, Session.RESUME);
    waitForState(id, Session.RUNNING, "running again");
    session.control(id, Session.TERMINATE);
    JobInfo info = session.wait(id, JOB_WAIT);
    assertFalse(info.hasExited() && info.getExitStatus() == 0, "a killed job did not end well: " + info);
    assertTrue(info.hasSignaled() || info.wasAborted(), info.toString());
    System.out.println("[drmaa] " + getClass().getSimpleName() + " terminated job: exited=" + info.hasExited() + " signaled="
        + info.hasSignaled() + " (" + info.getTerminatingSignal() + ") aborted=" + info.wasAborted());
  }

  @Test
  void bulkJobsRunEachTaskAndSynchronizeWaitsForAll() throws Exception {
    List<String> ids = session.runBulkJobs(shell("echo task", dir.resolve("bulk." + JobTemplate.PARAMETRIC_INDEX)), 1, 5, 2);
    assertEquals(3, ids.size(), ids.toString());
    session.synchronize(ids, JOB_WAIT, false);
    for (String id : ids) {
      assertEquals(Session.DONE, session.getJobProgramStatus(id), id);
      assertEquals(0, session.wait(id, Session.TIMEOUT_NO_WAIT).getExitStatus(), id);
    }
    for (int i : new int[] {1, 3, 5}) {
      assertEquals("task\n", Files.readString(dir.resolve("bulk." + i)), "task " + i);
    }
    assertFalse(Files.exists(dir.resolve("bulk.2")), "tasks go by the increment");
    assertThrows(IllegalArgumentException.class, () -> session.runBulkJobs(shell("true", dir.resolve("none")), 3, 1, 1), "an empty range");
  }

  @Test
  void synchronizeWithDisposeForgetsTheJobs() throws DrmaaException {
    String id = session.runJob(shell("exit 0", dir.resolve("dispose.out")));
    session.synchronize(List.of(id), JOB_WAIT, true);
    assertThrows(InvalidJobException.class, () -> session.wait(id, Session.TIMEOUT_NO_WAIT));
  }

  @Test
  void waitForAnyReturnsAJobOfTheSession() throws DrmaaException {
    String id = session.runJob(shell("exit 5", dir.resolve("any.out")));
    Eventually.waitFor(() -> "job " + id + " is reaped through JOB_IDS_SESSION_ANY", Duration.ofSeconds(JOB_WAIT), Duration.ZERO,
        () -> reapAny().equals(id));
  }

  @Test
  void severalThreadsSubmitAndWaitAtOnce() throws Exception {
    ExecutorService threads = Executors.newFixedThreadPool(4);
    try {
      List<Future<JobInfo>> results = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        int code = 10 + i;
        results.add(threads.submit(() -> session.wait(session.runJob(shell("exit " + code, dir.resolve("thread." + code))), JOB_WAIT)));
      }
      for (int i = 0; i < 4; i++) {
        assertEquals(10 + i, results.get(i).get().getExitStatus());
      }
    } finally {
      threads.shutdownNow();
    }
  }

  @Test
  void errorsAreTheStandardsExceptionsAndNameTheCall() throws DrmaaException {
    InvalidJobException unknown = assertThrows(InvalidJobException.class, () -> session.control("999999", Session.HOLD));
    assertTrue(unknown.getMessage().startsWith("drmaa_control(999999, HOLD): "), unknown.getMessage());
    assertThrows(InvalidJobException.class, () -> session.getJobProgramStatus("999999"));
    assertThrows(AlreadyActiveSessionException.class, () -> session.init(""));
    assertThrows(IllegalArgumentException.class, () -> session.control("999999", 9), "no such action");
    JobTemplate deleted = shell("true", dir.resolve("deleted.out"));
    session.deleteJobTemplate(deleted);
    assertThrows(InvalidJobTemplateException.class, () -> session.runJob(deleted));
    JobTemplate foreign = new SimpleJobTemplate(); // the standard's own class, not one the session made
    foreign.setRemoteCommand("/bin/true");
    assertThrows(InvalidJobTemplateException.class, () -> session.runJob(foreign), "a template the session did not make");
  }

  @Test
  void theOptionalAttributesListedAreThoseSupported() throws DrmaaException {
    JobTemplate t = session.createJobTemplate();
    List<String> optional = List.of("transferFiles", "deadlineTime", "hardWallclockTimeLimit", "softWallclockTimeLimit", "hardRunDurationLimit",
        "softRunDurationLimit");
    for (String name : optional) {
      boolean listed = t.getAttributeNames().contains(name);
      boolean works;
      try {
        switch (name) {
          case "transferFiles" -> t.getTransferFiles();
          case "deadlineTime" -> t.getDeadlineTime();
          case "hardWallclockTimeLimit" -> t.setHardWallclockTimeLimit(60);
          case "softWallclockTimeLimit" -> t.setSoftWallclockTimeLimit(60);
          case "hardRunDurationLimit" -> t.setHardRunDurationLimit(60);
          default -> t.setSoftRunDurationLimit(60);
        }
        works = true;
      } catch (UnsupportedAttributeException e) {
        works = false;
      }
      assertEquals(listed, works, name + ": listed " + listed + ", supported " + works);
    }
    assertTrue(t.getAttributeNames().containsAll(List.of("remoteCommand", "args", "jobSubmissionState", "jobEnvironment", "workingDirectory",
        "jobCategory", "nativeSpecification", "email", "blockEmail", "startTime", "jobName", "inputPath", "outputPath", "errorPath",
        "joinFiles")), "every mandatory attribute: " + t.getAttributeNames());
  }

  private void waitForState(String id, int state, String what) {
    Eventually.waitFor(() -> "job " + id + " is " + what + ", now " + state(id), Duration.ofSeconds(JOB_WAIT), Duration.ofMillis(200),
        () -> state(id) == state);
  }

  private String reapAny() {
    try {
      return session.wait(Session.JOB_IDS_SESSION_ANY, JOB_WAIT).getJobId();
    } catch (DrmaaException e) {
      throw new AssertionError("wait(JOB_IDS_SESSION_ANY): " + e.getMessage(), e);
    }
  }

  private int state(String id) {
    try {
      return session.getJobProgramStatus(id);
    } catch (DrmaaException e) {
      throw new AssertionError("job " + id + ": " + e.getMessage(), e);
    }
  }
}
