package org.coalition.slurm;

import static org.coalition.slurm.SlurmFilterIT.fields;
import static org.coalition.slurm.SlurmFilterIT.handler;
import static org.coalition.slurm.SlurmFilterIT.sbatch;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.coalition.handler.RemoteRun;
import org.coalition.testbed.Eventually;
import org.coalition.testbed.Instance;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A replay goes before the jobs waiting at home, on real Slurm through each REST version. Released,
 * a job gets the lowest priority (priority/basic), and Slurm's main scheduler passes over the rest
 * of a partition at the first job that cannot start: a replay behind a job waiting for memory waited
 * for the backfill pass (up to 30 s) beside idle cores ({@code bench e2e}: released to started p50
 * 7 s, p90 24 s). The daemon releases it ahead ({@link FederableJobs#REPLAY_NICE}).
 */
@Tag("testbed") // needs testbed/up's systems: .ci/run runs it once they are up
class SlurmReplayAheadIT {
  private static final Pattern PRIORITY = Pattern.compile("\\bPriority=(\\d+)");

  @ParameterizedTest
  @ValueSource(strings = {"slurm22-c1", "slurm24-c1", "slurm24-c1@v0.0.40"})
  void aReplayGoesBeforeAJobWaitingHereForMemory(String name) {
    Instance slurm = SlurmHandlerIT.instance(name);
    SlurmHandlerIT.emptyQueue(slurm);
    String federated = slurm.get("federated.partition");
    // one core and all memory but 500 MiB busy: a job of 600 MiB waits for Resources beside seven idle cores
    String filler = sbatch(slurm, "--parsable", "-p", slurm.get("partition"), "-c", "1", "--mem=7500", "-o", "/dev/null", "--wrap",
        "sleep 300");
    try (SlurmHandler handler = handler(name)) {
      Eventually.waitFor("the filler runs", Duration.ofSeconds(60), () -> "RUNNING".equals(fields(slurm, filler).get("JobState")));
      String parked = sbatch(slurm, "--parsable", "-H", "-p", federated, "-c", "2", "--mem=600", "-o", "/dev/null", "--wrap",
          "echo ran at home");
      handler.park(parked);
      String waiting = sbatch(slurm, "--parsable", "-p", federated, "-c", "2", "--mem=600", "-o", "/dev/null", "--wrap", "sleep 1");
      Eventually.waitFor("job " + waiting + " waits for memory", Duration.ofSeconds(30),
          () -> "Resources".equals(fields(slurm, waiting).get("Reason")));
      long released = System.nanoTime();
      handler.replay(parked, RemoteRun.exited("ran elsewhere\n", "", 0));
      long replay = priority(slurm, parked);
      long behind = priority(slurm, waiting);
      Map<String, String> ended = SlurmFilterIT.waitEnded(slurm, parked);
      System.out.printf("[bench] replay ahead on %s: priority %d over %d waiting; released to ended %.1f s%n", name, replay, behind,
          (System.nanoTime() - released) / 1e9);
      assertTrue(replay > behind, "the replay (" + replay + ") goes before job " + waiting + " waiting here (" + behind + ")");
      assertEquals("COMPLETED", ended.get("JobState"), "job " + parked + ": " + ended);
      assertEquals("PENDING", fields(slurm, waiting).get("JobState"), "job " + waiting + " still waits for its memory");
    } finally {
      SlurmHandlerIT.emptyQueue(slurm);
    }
  }

  /** A pending or running job's priority, as {@code scontrol} shows it (read before it ends). */
  private static long priority(Instance slurm, String id) {
    Matcher m = PRIORITY.matcher(SlurmHandlerIT.run(slurm, "scontrol", "show", "job", "-o", id));
    assertTrue(m.find(), "scontrol shows job " + id + "'s priority");
    return Long.parseLong(m.group(1));
  }
}
