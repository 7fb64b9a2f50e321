package org.coalition.handler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.coalition.testbed.Eventually;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The home side's shared contract (issue #50, docs/decisions/0018): what every {@link HomeQueue}
 * must do with its users' jobs on its real batch system. An opted-in job waiting for room is
 * listed; one not opted in is not; a parked job does not start when room appears, and unparked it
 * runs at home as if nothing had happened; a replay ends the user's own job as the remote run
 * ended (exit code or signal, standard output and error where the job's own would be), as the
 * system's own accounting then records it; a job an administrator holds is never parked (so its hold is never released); a
 * handler started anew (the daemon restarted) takes the parked jobs over; and an array's tasks are jobs of their own, one parked
 * and replayed while its siblings run at home. One subclass per home
 * system supplies the submission, the system's record of a job's end and the site's size; the
 * tests are the same for all. Shipped in handler-api's test jar.
 *
 * <p>Every job here asks for all the site's cores, and a job of the test's own (not opted in)
 * holds all but one of them for the whole test: a job can never start at home by accident, and a
 * replay, which the home system runs small (Slurm shrinks it to one core), finds its core. An
 * array's tasks ask one core each and wait behind a second job of the test's own on the last core.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class HomeQueueContract {
  /** Longest a test waits for the batch system (Grid Engine schedules every 15 s on the testbed). */
  protected static final Duration WAIT = Duration.ofMinutes(3);
  private static final Duration POLL = Duration.ofMillis(250);
  private static final String SCRIPT = "#!/bin/sh\necho 'ran at home'\necho 'home stderr' >&2\nexit 42\n";

  /** A job as the test submitted it: its id, and the files its standard output and error go to. */
  public record Submitted(String id, Path stdout, Path stderr) {}

  /** How the batch system's own record (Slurm's {@code sacct}, HTCondor's history, Grid Engine's {@code qacct}) says a job ended. */
  public record Ended(int exitCode, int signal) {
    public static Ended exited(int code) {
      return new Ended(code, 0);
    }

    public static Ended killed(int signal) {
      return new Ended(0, signal);
    }
  }

  private HomeQueue home;
  private Path dir;
  private String occupier;

  /** A home queue connected to the real system, as a daemon starting now would have it. */
  protected abstract HomeQueue connect();

  /** Lets go of a home queue (the daemon stops); a no-op where there is nothing to close. */
  protected abstract void close(HomeQueue home);

  /** Refreshes what {@link HomeQueue#federable} answers from (the handler's observation). */
  protected abstract void observe(HomeQueue home);

  /** Cores of the system's one node (the testbed's). */
  protected abstract int totalCores();

  /** A folder of the system's shared file system, where the suite makes a world-writable one for its jobs. */
  protected abstract Path jobsFolder();

  /**
   * Submits {@code script} as the system's ordinary user, the way its users do, asking for
   * {@code cores} cores, opted in to the federation or not, its standard output and error to files in
   * {@code dir}, with its working folder {@code dir}.
   */
  protected abstract Submitted submit(Path dir, Path script, int cores, boolean optedIn);

  /** How the job ended, as the system's own accounting records it; waits for the record up to {@link #WAIT}. */
  protected abstract Ended awaitEnd(String id);

  /** Whether the system has started the job (it runs or has ended). */
  protected abstract boolean started(String id);

  /** Submits a job of the test's own, not opted in, that takes {@code cores} cores until it is cancelled; returns its id. */
  protected abstract String occupy(int cores);

  /** Cancels a job. */
  protected abstract void cancel(String id);

  /** Holds a job as the system's administrator would (not as Coalition parks it). */
  protected abstract void adminHold(String id);

  /** Removes every job from the system and waits until none is left. */
  protected abstract void emptyQueue();

  /**
   * Submits an array of {@code tasks} tasks of {@code script} as the system's ordinary user, the
   * way its users do (Slurm's {@code sbatch --array}, Grid Engine's {@code qsub -t}, a cluster of
   * procs with HTCondor's {@code queue N}), one core each, opted in, in {@code dir}, each task's
   * standard output and error to files of its own; the tasks in order, each by the id the home
   * names it by.
   */
  protected abstract List<Submitted> submitArray(Path dir, Path script, int tasks);

  /** What a system checks of a task as its home lists it ({@code index} from 0); nothing by default. */
  protected void checkTask(HomeJob task, int index) {}

  @BeforeEach
  void start() throws IOException {
    emptyQueue();
    dir = Files.createTempDirectory(jobsFolder(), "home-contract-");
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
    Path script = dir.resolve("job.sh");
    Files.writeString(script, SCRIPT);
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    occupier = occupy(totalCores() - 1); // never opted in: holds all cores but one
    // running before the test's jobs are submitted: a scheduler that ranks jobs by size (Grid Engine's slot urgency) would start
    // a whole-site job first, while the occupier still waits
    Eventually.waitFor(() -> "the occupying job " + occupier + " to start", WAIT, POLL, () -> started(occupier));
    home = connect();
  }

  @AfterEach
  void stop() {
    close(home);
    emptyQueue();
  }

  private Submitted waiting(boolean optedIn) {
    return submit(dir, dir.resolve("job.sh"), totalCores(), optedIn);
  }

  private Optional<HomeJob> listed(String id) {
    observe(home);
    return home.federable().stream().filter(j -> j.id().equals(id)).findFirst();
  }

  private HomeJob awaitListed(String id) {
    Eventually.waitFor(() -> "job " + id + " to be listed as federable", WAIT, POLL, () -> listed(id).isPresent());
    return listed(id).orElseThrow();
  }

  private static String read(Path file) {
    try {
      return Files.exists(file) ? Files.readString(file) : "";
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  void anOptedInJobWaitingForRoomIsListedWithItsShapeAndOneNotOptedInIsNot() {
    Submitted opted = waiting(true);
    Submitted plain = waiting(false);
    HomeJob job = awaitListed(opted.id());
    assertEquals(totalCores(), job.cpus(), "the cores it asked for");
    assertFalse(job.held(), "waiting, not held");
    assertTrue(job.ready(), "nothing keeps it from starting but room");
    assertTrue(listed(plain.id()).isEmpty(), "a job not opted in is never the federation's");
  }

  @Test
  void aParkedJobIsListedHeldAndUnparkedItRunsAtHomeAsIfNothingHappened() {
    Submitted s = waiting(true);
    awaitListed(s.id());
    home.park(s.id());
    assertTrue(awaitListed(s.id()).held(), "parked: listed as held");
    assertFalse(started(s.id()), "a parked job does not start");
    home.unpark(s.id());
    cancel(occupier); // room at home: the job starts here
    assertEquals(Ended.exited(42), awaitEnd(s.id()), "unparked, it ran at home with its own exit code");
    assertEquals("ran at home\n", read(s.stdout()));
    assertEquals("home stderr\n", read(s.stderr()));
  }

  @Test
  void aReplayEndsTheUsersJobAsTheRemoteRunExitedWithItsOutput() {
    Submitted s = waiting(true);
    awaitListed(s.id());
    home.park(s.id());
    home.replay(s.id(), RemoteRun.exited("remote out\n", "remote err\n", 3));
    // the daemon goes on observing while the replay waits and runs: what it replays must stay until it has ended
    Eventually.waitFor(() -> "job " + s.id() + "'s replay to start", WAIT, POLL, () -> {
      observe(home);
      return started(s.id());
    });
    observe(home);
    assertEquals(Ended.exited(3), awaitEnd(s.id()), "the system's record has the remote run's exit code");
    assertEquals("remote out\n", read(s.stdout()), "the remote run's output where the job's own would be");
    assertEquals("remote err\n", read(s.stderr()));
  }

  @Test
  void aReplayOfARunKilledByASignalEndsTheJobKilledByIt() {
    Submitted s = waiting(true);
    awaitListed(s.id());
    home.park(s.id());
    home.replay(s.id(), RemoteRun.killed("until the signal\n", "", 15));
    assertEquals(Ended.killed(15), awaitEnd(s.id()), "the system's record has the remote run's signal");
    assertEquals("until the signal\n", read(s.stdout()));
  }

  @Test
  void aJobAnAdministratorHoldsIsNeverParkedSoItsHoldIsNeverReleased() {
    Submitted s = waiting(true);
    awaitListed(s.id());
    adminHold(s.id()); // after the handler first saw the job: its view may not show the hold yet
    HandlerException refused = assertThrows(HandlerException.class, () -> home.park(s.id()),
        "a held job is not parked: its hold would become the daemon's, and a replay or an unpark would release it");
    assertEquals(HandlerException.Category.REJECTED, refused.category(), refused.getMessage());
    assertFalse(started(s.id()), "still held");
  }

  @Test
  void anArraysTasksAreListedOneByOneAndOneReplaysWhileItsSiblingsRunAtHome() throws IOException {
    String last = occupy(1); // with the occupier, every core: no task starts until the test lets it
    Eventually.waitFor(() -> "the last core's occupier " + last + " to start", WAIT, POLL, () -> started(last));
    Path script = dir.resolve("task.sh");
    Files.writeString(script, "#!/bin/sh\necho 'task at home'\nexit 42\n");
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    List<Submitted> tasks = submitArray(dir, script, 3);
    List<String> ids = tasks.stream().map(Submitted::id).toList();
    Eventually.waitFor(() -> "the tasks " + ids + " to be listed one by one", WAIT, POLL,
        () -> ids.stream().allMatch(id -> listed(id).isPresent()));
    for (int i = 0; i < ids.size(); i++) {
      checkTask(listed(ids.get(i)).orElseThrow(), i);
    }
    String second = ids.get(1);
    assertEquals(read(script), home.payload(second), "the task's script, as its user wrote it");
    home.park(second);
    observe(home);
    Map<String, Boolean> held = new TreeMap<>();
    home.federable().stream().filter(j -> ids.contains(j.id())).forEach(j -> held.put(j.id(), j.held()));
    assertEquals(Map.of(ids.get(0), false, second, true, ids.get(2), false), held, "only the parked task is held");
    home.replay(second, RemoteRun.exited("task elsewhere\n", "", 5));
    cancel(last);
    assertEquals(Ended.exited(5), awaitEnd(second), "the replayed task ends as its run did");
    assertEquals(Ended.exited(42), awaitEnd(ids.get(0)), "its siblings run at home");
    assertEquals(Ended.exited(42), awaitEnd(ids.get(2)), "its siblings run at home");
    assertEquals("task elsewhere\n", read(tasks.get(1).stdout()), "the run's output in the task's own file");
    assertEquals("task at home\n", read(tasks.get(0).stdout()));
  }

  @Test
  void aHomeQueueStartedAnewTakesTheParkedJobOverAndReplaysIt() {
    Submitted s = waiting(true);
    awaitListed(s.id());
    home.park(s.id());
    close(home);
    home = connect(); // the daemon restarted
    assertTrue(awaitListed(s.id()).held(), "still parked after the restart");
    home.replay(s.id(), RemoteRun.exited("after the restart\n", "", 0));
    assertEquals(Ended.exited(0), awaitEnd(s.id()));
    assertEquals("after the restart\n", read(s.stdout()));
    assertTrue(listed(s.id()).isEmpty(), "ended: no longer listed");
  }
}
