package org.coalition.containers;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which lost runs a soak's faults explain, read from daemon logs written here. */
class RunLossesTest {
  private static final long T0 = Instant.parse("2026-11-27T08:43:38Z").toEpochMilli();
  private static final Duration SETTLE = Duration.ofSeconds(98);
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

  private static List<RunLosses.Loss> unexplainedRequeueAt(Path dir, long atMillis, List<RandomFaults.Injected> faults) throws IOException {
    Files.writeString(dir.resolve("west-daemon.log"), "");
    Files.writeString(dir.resolve("north-daemon.log"), Instant.ofEpochMilli(atMillis) + " [coalition-zk-north] [INFO] org.coalition"
        + ".coordination.zookeeper.ZkLostRuns - requeued north/321: claim 4294988473: west lost its session and did not take the claim back"
        + " within 60 s\n");
    return new RunLosses(new Logs(dir), List.of("west"), "north", T0 - 1000, faults, SETTLE).unexplained();
  }
}
