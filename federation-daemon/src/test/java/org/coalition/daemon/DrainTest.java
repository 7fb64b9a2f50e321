package org.coalition.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.coalition.coordination.MutableClock;
import org.coalition.daemon.pilot.PilotAgent;
import org.coalition.daemon.pilot.PilotService.Assignment;
import org.coalition.daemon.pilot.PilotService.RunOutcome;
import org.coalition.handler.PilotState;
import org.coalition.periodic.BalancingPeriod;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code coalition drain}: no more foreign work is taken, queued pilots go, running foreign jobs finish, then the site is drained. */
class DrainTest {
  @TempDir Path tmp;

  @Test
  void aDrainingSiteFinishesItsForeignJobsTakesNoNewOnesAndThenIsDrained() {
    OnePilot one = OnePilot.start(tmp);
    Broker home = one.home();
    Broker exec = one.exec();
    FakeBatch homeBatch = one.homeBatch();
    FakeBatch execBatch = one.execBatch();
    MutableClock clock = one.clock();
    Map<String, String> first = Map.of(PilotAgent.ID, one.pilot(), PilotAgent.TOKEN, one.envToken());
    Assignment running = exec.work(first.get(PilotAgent.ID), first.get(PilotAgent.TOKEN)).orElseThrow();
    homeBatch.userJob("8", 2);
    home.tick();
    BalancingPeriod next = new BalancingPeriod(home.coordination());
    next.run();
    next.run(); // period 2: a new period, with allowances for job 8 (period 1 is the one OnePilot.queue ran)
    clock.advance(Duration.ofSeconds(31));
    home.tick();
    exec.tick();
    assertEquals(2, execBatch.submitted.size(), "a second pilot waits, for job 8");

    exec.drain();
    assertTrue(exec.draining());
    assertFalse(exec.drained(), "job 7 still runs here");
    assertEquals(List.of(execBatch.lastPilot()), execBatch.cancelled, "the queued pilot is cancelled at once");
    Map<String, String> second = execBatch.submitted.get(1).environment();
    assertEquals(Optional.empty(), exec.work(second.get(PilotAgent.ID), second.get(PilotAgent.TOKEN)),
        "a queued pilot that starts anyway gets no work");
    exec.tick();
    assertEquals(2, execBatch.submitted.size(), "no new pilot is submitted");

    assertTrue(exec.heartbeat(first.get(PilotAgent.ID), running.token()), "the running job goes on");
    exec.finish(first.get(PilotAgent.ID), running.token(), new RunOutcome(0, 5, 0, "seven\n".getBytes(StandardCharsets.UTF_8), new byte[0]));
    execBatch.pilots.replaceAll((h, s) -> PilotState.COMPLETED);
    exec.tick();
    assertTrue(exec.drained(), "its one foreign job ended: the daemon may exit");
    home.tick();
    assertEquals("exec", home.finished("7").orElseThrow().executor(), "and the job ended at home with its run");
    assertTrue(exec.coordination().queue().stream().anyMatch(j -> j.ref().toString().equals("home/8")), "job 8 waits for another site");
  }
}
