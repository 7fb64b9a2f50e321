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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The DRMAA 1.0 conformance suite: what any {@link Session} must do against a real batch system.
 * One subclass per back end supplies an open session and a folder its jobs can write to; the
 * tests are the same for all. Shipped in drmaa-bridge's test jar so that other modules' back ends
 * run it too (condor-handler's session over HTCondor's tools).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class SessionConformance {
  /** Longest a test waits for one job (the testbed's systems start a job within seconds). */
  protected static final Duration JOB_WAIT = Duration.ofMinutes(2);
  private Session session;
  private Path dir;

  /** A new session of the back end, not yet initialised. */
  protected abstract Session newSession();

  /** A folder of the back end's shared file system; the suite makes a world-writable one inside. */
  protected abstract Path jobsFolder();

  /** How the back end names its batch system: the start of {@link Session#getDrmSystem()}. */
  protected abstract String drmSystemPrefix();

  /**
   * A native specification that keeps a job queued, neither held nor started, for longer than a
   * test lasts: requirements no machine meets (a start time in the future will not do: Grid Engine
   * reports that as a system hold).
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
  void close() {
    if (session != null) {
      session.control(Session.JOB_IDS_SESSION_ALL, Session.Action.TERMINATE);
      session.exit();
    }
  }

  protected Session session() {
    return session;
  }

  protected Path dir() {
    return dir;
  }

  /** A template that runs {@code script} with {@code /bin/sh -c}, standard output and error joined into {@code out}. */
  protected static JobTemplate shell(String script, Path out) {
    return new JobTemplate().setRemoteCommand("/bin/sh").setArgs(List.of("-c", script)).setOutputPath(out.toString()).setJoinFiles(true)
        .setJobName("coalition-drmaa");
  }

  @Test
  void theImplementationDescribesItself() {
    assertEquals("1.0", session.getVersion());
    assertTrue(session.getDrmSystem().startsWith(drmSystemPrefix()), session.getDrmSystem());
    assertFalse(session.getDrmaaImplementation().isEmpty());
    assertFalse(session.getContact().isEmpty());
    System.out.println("[drmaa] " + getClass().getSimpleName() + ": DRMAA " + session.getVersion() + ", system " + session.getDrmSystem()
        + ", implementation " + session.getDrmaaImplementation() + ", contact " + session.getContact());
  }

  @Test
  void aJobRunsWithItsArgumentsAndEnvironmentAndIsReapedOnce() throws Exception {
    Path out = dir.resolve("one.out");
    String id = session.runJob(shell("", out).setArgs(List.of("-c", "echo \"hello $COALITION_TEST\" \"$0\"; exit 3", "two words"))
        .setJobEnvironment(Map.of("COALITION_TEST", "yes")));
    JobInfo info = session.waitFor(id, JOB_WAIT);
    assertEquals(id, info.jobId());
    assertTrue(info.exited(), info.toString());
    assertEquals(3, info.exitStatus());
    assertFalse(info.signaled() || info.aborted(), info.toString());
    assertEquals("hello yes two words\n", Files.readString(out), "the job saw its environment and its arguments unsplit");
    assertThrows(DrmaaException.InvalidJobException.class, () -> session.waitFor(id, Session.NO_WAIT), "a job is reaped once");
  }

  @Test
  void theWorkingDirectoryAndTheErrorPathAreHonoured() throws Exception {
    Path wd = Files.createDirectory(dir.resolve("wd"));
    Files.setPosixFilePermissions(wd, PosixFilePermissions.fromString("rwxrwxrwx"));
    JobTemplate t = new JobTemplate().setRemoteCommand("/bin/sh").setArgs(List.of("-c", "pwd; echo oops >&2"))
        .setWorkingDirectory(wd.toString()).setOutputPath(wd.resolve("o").toString()).setErrorPath(wd.resolve("e").toString());
    JobInfo info = session.waitFor(session.runJob(t), JOB_WAIT);
    assertEquals(0, info.exitStatus(), info.toString());
    assertEquals(wd + "\n", Files.readString(wd.resolve("o")));
    assertEquals("oops\n", Files.readString(wd.resolve("e")));
  }

  @Test
  void aJobSubmittedOnHoldWaitsUntilReleased() {
    String id = session.runJob(shell("exit 0", dir.resolve("held.out")).setJobSubmissionState(JobTemplate.SubmissionState.HOLD));
    assertEquals(JobState.USER_ON_HOLD, session.getJobProgramStatus(id));
    assertThrows(DrmaaException.ExitTimeoutException.class, () -> session.waitFor(id, Duration.ofSeconds(2)));
    session.control(id, Session.Action.RELEASE);
    JobInfo info = session.waitFor(id, JOB_WAIT);
    assertEquals(0, info.exitStatus());
  }

  @Test
  void aQueuedJobIsHeldAndReleasedByControl() {
    // A job that waits in the queue for a reason other than a hold, so nothing can start it between
    // the two controls: a hold that does nothing leaves it QUEUED_ACTIVE and fails the first wait.
    String id = session.runJob(shell("exit 0", dir.resolve("control-held.out")).setNativeSpecification(stayQueuedSpecification()));
    assertEquals(JobState.QUEUED_ACTIVE, session.getJobProgramStatus(id), "the job waits in the queue");
    session.control(id, Session.Action.HOLD);
    Eventually.waitFor(() -> "job " + id + " is held, now " + session.getJobProgramStatus(id), JOB_WAIT, Duration.ofMillis(200),
        () -> session.getJobProgramStatus(id) == JobState.USER_ON_HOLD);
    session.control(id, Session.Action.RELEASE);
    Eventually.waitFor(() -> "job " + id + " is released, now " + session.getJobProgramStatus(id), JOB_WAIT, Duration.ofMillis(200),
        () -> session.getJobProgramStatus(id) == JobState.QUEUED_ACTIVE);
    session.control(id, Session.Action.TERMINATE);
    JobInfo info = session.waitFor(id, JOB_WAIT);
    assertFalse(info.exited() && info.exitStatus() == 0, "a job that could not start did not end well: " + info);
  }

  @Test
  void aRunningJobIsSuspendedResumedAndTerminated() {
    String id = session.runJob(shell("sleep 300", dir.resolve("killed.out")));
    Eventually.waitFor(() -> "job " + id + " runs", JOB_WAIT, Duration.ofMillis(200), () -> session.getJobProgramStatus(id) == JobState.RUNNING);
    session.control(id, Session.Action.SUSPEND);
    Eventually.waitFor(() -> "job " + id + " is suspended, now " + session.getJobProgramStatus(id), JOB_WAIT, Duration.ofMillis(200),
        () -> session.getJobProgramStatus(id) == JobState.USER_SUSPENDED);
    session.control(id, Session.Action.RESUME);
    Eventually.waitFor(() -> "job " + id + " runs again, now " + session.getJobProgramStatus(id), JOB_WAIT, Duration.ofMillis(200),
        () -> session.getJobProgramStatus(id) == JobState.RUNNING);
    session.control(id, Session.Action.TERMINATE);
    JobInfo info = session.waitFor(id, JOB_WAIT);
    assertFalse(info.exited() && info.exitStatus() == 0, "a killed job did not end well: " + info);
    assertTrue(info.signaled() || info.aborted(), info.toString());
    System.out.println("[drmaa] " + getClass().getSimpleName() + " terminated job: exited=" + info.exited() + " signaled=" + info.signaled()
        + " aborted=" + info.aborted());
  }

  @Test
  void bulkJobsRunEachTaskAndSynchronizeWaitsForAll() throws Exception {
    List<String> ids = session.runBulkJobs(shell("echo task", dir.resolve("bulk." + JobTemplate.PARAMETRIC_INDEX)), 1, 5, 2);
    assertEquals(3, ids.size(), ids.toString());
    session.synchronize(ids, JOB_WAIT, false);
    for (String id : ids) {
      assertEquals(JobState.DONE, session.getJobProgramStatus(id), id);
      assertEquals(0, session.waitFor(id, Session.NO_WAIT).exitStatus(), id);
    }
    for (int i : new int[] {1, 3, 5}) {
      assertEquals("task\n", Files.readString(dir.resolve("bulk." + i)), "task " + i);
    }
    assertFalse(Files.exists(dir.resolve("bulk.2")), "tasks go by the increment");
  }

  @Test
  void synchronizeWithDisposeForgetsTheJobs() {
    String id = session.runJob(shell("exit 0", dir.resolve("dispose.out")));
    session.synchronize(List.of(id), JOB_WAIT, true);
    assertThrows(DrmaaException.InvalidJobException.class, () -> session.waitFor(id, Session.NO_WAIT));
  }

  @Test
  void waitForAnyReturnsAJobOfTheSession() {
    String id = session.runJob(shell("exit 5", dir.resolve("any.out")));
    Eventually.waitFor(() -> "job " + id + " is reaped through JOB_IDS_SESSION_ANY", JOB_WAIT, Duration.ZERO,
        () -> session.waitFor(Session.JOB_IDS_SESSION_ANY, JOB_WAIT).jobId().equals(id));
  }

  @Test
  void severalThreadsSubmitAndWaitAtOnce() throws Exception {
    ExecutorService threads = Executors.newFixedThreadPool(4);
    try {
      List<Future<JobInfo>> results = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        int code = 10 + i;
        results.add(threads.submit(() -> session.waitFor(session.runJob(shell("exit " + code, dir.resolve("thread." + code))), JOB_WAIT)));
      }
      for (int i = 0; i < 4; i++) {
        assertEquals(10 + i, results.get(i).get().exitStatus());
      }
    } finally {
      threads.shutdownNow();
    }
  }

  @Test
  void errorsAreTypedAndNameTheCall() {
    DrmaaException unknown = assertThrows(DrmaaException.class, () -> session.control("999999", Session.Action.HOLD));
    assertTrue(unknown instanceof DrmaaException.InvalidJobException, unknown.getClass() + ": " + unknown.getMessage());
    assertTrue(unknown.getMessage().startsWith("drmaa_control(999999, HOLD): "), unknown.getMessage());
    assertThrows(DrmaaException.InvalidJobException.class, () -> session.getJobProgramStatus("999999"));
    assertThrows(DrmaaException.AlreadyActiveSessionException.class, () -> session.init(""));
    DrmaaException bad = assertThrows(DrmaaException.InvalidArgumentException.class,
        () -> session.runJob(new JobTemplate().setRemoteCommand("/bin/true").set("drmaa_no_such_attribute", "x")));
    assertTrue(bad.getMessage().contains("drmaa_no_such_attribute"), bad.getMessage());
  }
}
