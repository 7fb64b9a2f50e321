package org.coalition.slurm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.coalition.handler.HandlerException;
import org.coalition.handler.HandlerException.Category;
import org.coalition.handler.RemoteRun;
import org.coalition.handler.files.Results;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A replay's order over a hand-written REST version: shrink, write the result, release ahead of
 * the jobs waiting; and what it does when Slurm refuses the shrink or the nice, or cannot be reached. The real shrink is shown by
 * SlurmFilterIT on each Slurm version of the testbed. Writes results as root, the one user every
 * test machine has (the build runs as root; the results folder hands files to their users).
 */
class FederableJobsTest {
  @TempDir
  Path dir;

  private FederableJobs jobs(SlurmHandlerTest.FakeRest rest) throws IOException {
    Path results = Files.createDirectory(dir.resolve("results"), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx--x--x")));
    rest.table.put("7", new SlurmJob("7", "PENDING", "federated", 4, 0, 3600, OptionalInt.empty(), "JobHeldAdmin", "root", true, ""));
    SlurmConfig config = new SlurmConfig("http://unused", SlurmCredentials.tokenFile("root", Path.of("/none")),
        "root", Optional.empty(), Duration.ofSeconds(1), 3600, Duration.ofMinutes(10), Clock.systemUTC(), Optional.of(results),
        List.of("scontrol"));
    return new FederableJobs(rest, config, Optional.of(new Results(results)));
  }

  private String status() throws IOException {
    return Files.readString(dir.resolve("results/7/status")).trim();
  }

  /** The calls a replay of a timed-out run makes when a shrink is refused with {@code refusal} (null: it shrinks). */
  private List<String> replayTimedOut(HandlerException refusal) throws IOException {
    SlurmHandlerTest.FakeRest rest = new SlurmHandlerTest.FakeRest(true);
    rest.shrinkRefusal = refusal;
    jobs(rest).replay("7", RemoteRun.timedOut("out\n", "", 0, 15));
    return rest.calls;
  }

  @Test
  void aReplayShrinksTheJobBeforeItsRelease() throws IOException {
    assertEquals(List.of("job 7", "shrink 7", "release 7 ahead " + FederableJobs.REPLAY_NICE), replayTimedOut(null));
    assertEquals("timeout 15", status(), "a run stopped at its limit replays as a timeout, at the shrunk job's one minute");
  }

  @Test
  void aShrinkSlurmRefusesStillReplaysAndATimeoutThenEndsByItsSignal() throws IOException {
    HandlerException denied = new HandlerException(Category.REJECTED, "Access/permission denied");
    assertEquals(List.of("job 7", "shrink 7", "release 7 ahead " + FederableJobs.REPLAY_NICE), replayTimedOut(denied));
    assertEquals("signal 15", status(), "unshrunk, a timeout would wait for the job's own limit (a day, or none)");
  }

  @Test
  void aNiceSlurmRefusesStillReleasesTheReplayInItsTurn() throws IOException {
    SlurmHandlerTest.FakeRest rest = new SlurmHandlerTest.FakeRest(true);
    rest.niceRefusal = new HandlerException(Category.REJECTED, "Access/permission denied");
    jobs(rest).replay("7", RemoteRun.exited("out\n", "", 0));
    assertEquals(List.of("job 7", "shrink 7", "release 7 ahead " + FederableJobs.REPLAY_NICE, "release 7"), rest.calls);
    assertEquals("exit 0", status());
  }

  @Test
  void aSlurmrestdAwayLeavesTheJobParkedAndNoResultWritten() throws IOException {
    SlurmHandlerTest.FakeRest rest = new SlurmHandlerTest.FakeRest(true);
    rest.shrinkRefusal = new HandlerException(Category.UNAVAILABLE, "connection refused");
    FederableJobs jobs = jobs(rest);
    HandlerException e = assertThrows(HandlerException.class, () -> jobs.replay("7", RemoteRun.exited("out\n", "", 0)));
    assertEquals(Category.UNAVAILABLE, e.category(), "the home tries again next round");
    assertEquals(List.of("job 7", "shrink 7"), rest.calls, "not released");
    assertFalse(Files.exists(dir.resolve("results/7")));
  }
}
