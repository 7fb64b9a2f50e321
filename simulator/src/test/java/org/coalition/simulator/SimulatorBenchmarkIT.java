package org.coalition.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.Arrays;
import org.coalition.policy.fairness.PolicyName;
import org.coalition.simulator.engine.Engine;
import org.coalition.simulator.random.Variates;
import org.coalition.simulator.replay.ReplayModel;
import org.coalition.simulator.replay.ReplayResult;
import org.coalition.simulator.swf.SwfReader;
import org.coalition.simulator.swf.SwfTrace;
import org.junit.jupiter.api.Test;

/**
 * Speed figures, printed as {@code [bench]} lines in every CI log (simulator/README.md quotes
 * them). Nothing here is timed against a limit: machines differ; the figures are the result.
 */
class SimulatorBenchmarkIT {
  private static final Path TRACES = Path.of(System.getProperty("coalition.traces", "../../shared/traces"));

  /**
   * The classic "hold" model: a calendar of 10,000 pending events; each fired event schedules one
   * more at now + an exponential delay. Five measured runs of 2 million events after two warm-ups.
   */
  @Test
  void engineEventsPerSecond() {
    double[] rates = new double[5];
    for (int run = -2; run < rates.length; run++) {
      Engine engine = new Engine();
      Variates random = new Variates(run + 10);
      long[] left = {2_000_000};
      Engine.Event hold = new Engine.Event() {
        @Override
        public void fire(Engine e) {
          if (--left[0] > 0) {
            e.schedule(e.now() + random.exponential(1), this);
          }
        }
      };
      for (int i = 0; i < 10_000; i++) {
        engine.schedule(random.exponential(1), hold);
      }
      long start = System.nanoTime();
      engine.run();
      double seconds = (System.nanoTime() - start) / 1e9;
      if (run >= 0) {
        rates[run] = engine.fired() / seconds;
      }
    }
    Arrays.sort(rates);
    System.out.printf("[bench] engine hold model, 10,000 pending: median %,.0f events/s (min %,.0f, max %,.0f)%n",
        rates[2], rates[0], rates[4]);
  }

  @Test
  void replayTheWholeHpc2nLog() throws Exception {
    long start = System.nanoTime();
    SwfTrace trace = SwfReader.read(TRACES.resolve("HPC2N-2002-2.2-cln.swf.gz"));
    double read = (System.nanoTime() - start) / 1e9;
    for (PolicyName policy : new PolicyName[] {PolicyName.SIMPL_DIRECT, PolicyName.FAIRSHARE}) {
      ReplayResult r = new ReplayModel(trace, 5, 240, policy, 1).run();
      assertEquals(202_871, r.jobs(), "HPC2N's jobs that ran");
      System.out.printf("[bench] replay HPC2N, %,d jobs, 5 sites, %s: read %.2f s + simulate %.2f s = %.2f s; %,d events, %,.0f events/s%n",
          r.jobs(), policy, read, r.seconds(), read + r.seconds(), r.events(), r.eventsPerSecond());
    }
  }
}
