package org.coalition.containers;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which lost runs a soak's faults explain, read from daemon logs written here. */
class RunLossesTest {
  private static final long T0 = Instant.parse("2026-11-27T08:43:38Z").toEpochMilli();
  private static final Duration SETTLE = Duration.ofSeconds(98);
  private static final DateTimeFormatter LOGGED = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSXXX").withZone(ZoneOffset.UTC);
  /** West cut off for 40 s; its session ends, its runs are killed, north requeues its jobs. */
  private static final RandomFaults.Injected CUT = new RandomFaults.Injected(RandomFaults.Kind.CUT_OFF, "west", T0, T0 + 40_000);

  @Test
  void aRequeueWithinTheSettlingTimeAfterACutOffIsExplained(@TempDir Path dir) throws IOException {
    assertEquals(List.of(), unexplainedRequeueAt(dir, T0 + 40_000 + 97_000, List.of(CUT)));
  }

  @Test
  void aRequeueLongAfterACutOffIsNot(@TempDir Path dir) throws IOException {
    assertEquals(1, unexplainedRequeueAt(dir, T0 + 40_000 + 99_000, List.of(CUT)).size());
  }

  /** The soak's seed 65363578799246: north upgraded right after west's cut-off started its restart grace again on its return. */
  @Test
  void aRequeueWithinTheSettlingTimeAfterTheHomesReturnFromARestartBegunMeanwhileIsExplained(@TempDir Path dir) throws IOException {
    RandomFaults.Injected upgrade = new RandomFaults.Injected(RandomFaults.Kind.UPGRADE, "north", T0 + 60_000, T0 + 80_000);
    assertEquals(List.of(), unexplainedRequeueAt(dir, T0 + 80_000 + 97_000, List.of(CUT, upgrade)));
    RandomFaults.Injected ofAnotherSite = new RandomFaults.Injected(RandomFaults.Kind.UPGRADE, "south", T0 + 60_000, T0 + 80_000);
    assertEquals(1, unexplainedRequeueAt(dir, T0 + 80_000 + 97_000, List.of(CUT, ofAnotherSite)).size(), "only the home's restart counts");
  }

  /**
   * The control of the soak's audit: an excerpt of the daemons' logs, written as they write them
   * (cli's logback.xml; the words of Decisions, ZkLostRuns and ExecutorSide), in which west lost
   * north/321 to its cut-off and south lost north/322 to a crash: south's restarted daemon found
   * the claim requeued and killed the run. An audit that found none of these would let every soak
   * pass. A claim given back unused (its pilot never got the job) is no lost run.
   */
  @Test
  void everyRunLostInAnExcerptOfTheDaemonsLogsIsFoundAndOnlyTheCutOffExplainsItsLoss(@TempDir Path dir) throws IOException {
    RandomFaults.Injected crash = new RandomFaults.Injected(RandomFaults.Kind.CRASH, "south", T0 + 150_000, T0 + 240_000);
    Files.writeString(dir.resolve("west-daemon.log"), logged(T0 + 39_200, "pilot-api-3", "org.coalition.decisions",
        "site=west decision=kill-run job=north/321 pilot=west-4-3f2a1c reason=claim-lost claim 4294988473 on job north/321 is stale: the"
        + " session that made it (0x1000a3c5e0004) has ended 30 s ago, and the claim could not be taken back within half the restart"
        + " grace (60 s); its home requeues it"));
    Files.writeString(dir.resolve("south-daemon.log"), logged(T0 + 100_000, "broker-south", "org.coalition.decisions",
        "site=south decision=claim job=north/322 pilot=south-9-a01b2c reason=fits 4 cores")
        + "Picked up JAVA_TOOL_OPTIONS: -Xmx256m\n" // a line without a time of its own: left out
        + logged(T0 + 240_500, "main", "org.coalition.decisions", "site=south decision=kill-run job=north/322 pilot=south-9-a01b2c"
        + " reason=claim-lost-in-restart claim 4294990001 on job north/322 is stale: the job or its claim changed or is gone (requeued by"
        + " its home)")
        + logged(T0 + 241_000, "broker-south", "org.coalition.decisions", "site=south decision=release job=north/323 reason=never-confirmed"
        + " pilot south-10-b7c3d4 ended (COMPLETED) without a call for the job it was handed, so it never got it; no run began, and the"
        + " job goes back to the queue"));
    Files.writeString(dir.resolve("north-daemon.log"), logged(T0 + 69_000, "coalition-zk-north", "org.coalition.coordination.zookeeper"
        + ".ZkLostRuns", "requeued north/321: claim 4294988473: west lost its session and did not take the claim back within 60 s")
        + logged(T0 + 218_000, "coalition-zk-north", "org.coalition.coordination.zookeeper.ZkLostRuns", "requeued north/322: claim"
        + " 4294990001: south lost its session and did not take the claim back within 60 s")
        + logged(T0 + 244_000, "coalition-zk-north", "org.coalition.coordination.zookeeper.ZkLostRuns", "requeued north/323: claim"
        + " 4294990002: south gave it up"));
    RunLosses losses = new RunLosses(new Logs(dir), List.of("west", "south"), "north", T0 - 1000, List.of(CUT, crash), SETTLE);
    assertEquals(List.of("north/321 at west", "north/322 at south", "north/321 at west", "north/322 at south"),
        losses.all().stream().map(l -> l.job() + " at " + l.executor()).toList(), "each executor's kill and each home's requeue: " + losses.all());
    assertEquals(List.of("north/322 at south", "north/322 at south"), losses.unexplained().stream().map(l -> l.job() + " at " + l.executor())
        .toList(), "the crash explains no loss, the cut-off of west explains west's: " + losses.all());
    assertEquals(1, losses.unusedClaims(), "the claim south gave back unused");
  }

  /** One line as a daemon writes it (cli's logback.xml: the time in UTC to the millisecond, the thread, the level, the logger). */
  private static String logged(long atMillis, String thread, String logger, String message) {
    return LOGGED.format(Instant.ofEpochMilli(atMillis)) + " [" + thread + "] [INFO] " + logger + " - " + message + "\n";
  }

  private static List<RunLosses.Loss> unexplainedRequeueAt(Path dir, long atMillis, List<RandomFaults.Injected> faults) throws IOException {
    Files.writeString(dir.resolve("west-daemon.log"), "");
    Files.writeString(dir.resolve("north-daemon.log"), Instant.ofEpochMilli(atMillis) + " [coalition-zk-north] [INFO] org.coalition"
        + ".coordination.zookeeper.ZkLostRuns - requeued north/321: claim 4294988473: west lost its session and did not take the claim back"
        + " within 60 s\n");
    return new RunLosses(new Logs(dir), List.of("west"), "north", T0 - 1000, faults, SETTLE).unexplained();
  }
}
