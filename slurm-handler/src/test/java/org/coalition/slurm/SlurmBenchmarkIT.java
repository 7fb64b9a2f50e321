package org.coalition.slurm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.coalition.handler.PilotSpec;
import org.coalition.handler.QueueObservation;
import org.coalition.testbed.Instance;
import org.coalition.testbed.Testbed;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Figures for the handler on the testbed's real clusters, printed as {@code [bench]} lines (not
 * asserted against a speed: this machine's two cores are shared with everything else):
 * pilot submissions per second through the handler beside plain {@code sbatch} in the same run,
 * and what one observation costs (requests, response bytes) at 10 and at 5,000 pending jobs,
 * cold (first poll), warm (nothing new) and after one new job. Slurm keeps ended jobs listed for
 * MinJobAge (300 s by default), so the lists also hold the jobs this test cancelled before.
 */
@Tag("testbed") // needs testbed/up's systems: .ci/run runs it once they are up
class SlurmBenchmarkIT {
  private static final int SUBMISSIONS = 200;
  private static final int MANY = 5_000;

  @ParameterizedTest
  @ValueSource(strings = {"slurm22-c1", "slurm24-c1"})
  void pilotSubmissionsBesideSbatchAndObservationCost(String name) throws Exception {
    Instance slurm = Testbed.require(name);
    SlurmHandlerIT.emptyQueue(slurm);
    try (SlurmHandler handler = SlurmHandler.connect(SlurmHandlerIT.config(slurm))) {
      PilotSpec spec = SlurmHandlerIT.pilot(slurm, "bench", List.of("/bin/true"), true);
      // Observation first, while the controller lists few ended jobs.
      for (int i = 0; i < 10; i++) {
        handler.submit(spec);
      }
      measure(slurm, name, 10, spec);
      // measure() added one.
      for (int i = 11; i < MANY; i++) {
        handler.submit(spec);
      }
      measure(slurm, name, MANY, spec);
      SlurmHandlerIT.emptyQueue(slurm);

      // Warm-up of both submission paths (JIT, connections, the chroot's page cache).
      for (int i = 0; i < 20; i++) {
        handler.submit(spec);
        SlurmHandlerIT.run(slurm, "sbatch", "-H", "-p", slurm.get("partition"), "-o", "/dev/null", "--wrap", "true");
      }
      long t0 = System.nanoTime();
      for (int i = 0; i < SUBMISSIONS; i++) {
        SlurmHandlerIT.run(slurm, "sbatch", "-H", "-p", slurm.get("partition"), "-c", "2", "-t", "2", "-o", "/dev/null", "--wrap", "true");
      }
      double sbatchRate = SUBMISSIONS / ((System.nanoTime() - t0) / 1e9);
      long t1 = System.nanoTime();
      for (int i = 0; i < SUBMISSIONS; i++) {
        handler.submit(spec);
      }
      double handlerRate = SUBMISSIONS / ((System.nanoTime() - t1) / 1e9);
      System.out.printf("[bench] %s (%s): pilot submissions %.1f/s through the handler, sbatch %.1f/s, ratio %.2f (goal >= 0.8)%n",
          name, handler.version(), handlerRate, sbatchRate, handlerRate / sbatchRate);
    } finally {
      SlurmHandlerIT.emptyQueue(slurm);
    }
  }

  /** One fresh handler per size: its first observation is cold, as after a daemon restart. */
  private static void measure(Instance slurm, String name, int pending, PilotSpec spec) throws IOException, InterruptedException {
    try (SlurmHandler handler = SlurmHandler.connect(SlurmHandlerIT.config(slurm))) {
      long t = System.nanoTime();
      QueueObservation cold = handler.observe();
      double coldMs = (System.nanoTime() - t) / 1e6;
      assertEquals(pending, cold.pendingJobs(), cold.toString());
      // v0.0.38's update time has a resolution of a second: a poll in the same second as the last
      // change gets everything again.
      Thread.sleep(2_000);
      long plain = handler.version().equals("v0.0.38") ? plainBytes(slurm, "/slurm/v0.0.38/jobs") + plainBytes(slurm, "/slurm/v0.0.38/nodes") : 0;
      t = System.nanoTime();
      QueueObservation warm = handler.observe();
      double warmMs = (System.nanoTime() - t) / 1e6;
      assertEquals(pending, warm.pendingJobs());
      handler.submit(spec);
      t = System.nanoTime();
      QueueObservation oneNew = handler.observe();
      double oneNewMs = (System.nanoTime() - t) / 1e6;
      assertEquals(pending + 1, oneNew.pendingJobs());
      if (handler.version().equals("v0.0.42")) {
        // State-only polls: an unchanged queue costs less than the first read. (v0.0.38's polls are
        // all or nothing: any change in the controller's job table sends the whole list again.)
        assertTrue(warm.cost().bytes() < cold.cost().bytes(), warm + " / " + cold);
      } else {
        // v0.0.38's polls are all or nothing: 22.05's scheduler touches the job table between two
        // polls, so the whole list comes again (measured: warm = cold less the unchanged nodes).
        // Still, a warm observation costs no more than one plain read of the jobs and the nodes, made
        // just before without the handler (a margin of a quarter for a job read when one ends meanwhile;
        // read before, since Slurm's purge of old jobs only shrinks the list).
        assertTrue(warm.cost().bytes() <= plain * 1.25, "a warm poll costs at most a plain read (" + plain + " bytes): " + warm);
      }
      System.out.printf("[bench] %s (%s) observation at %,d pending: cold %d requests %,d bytes %.0f ms; warm %d requests %,d bytes %.0f ms;"
          + " after one new job %d requests %,d bytes %.0f ms%n", name, handler.version(), pending, cold.cost().requests(), cold.cost().bytes(),
          coldMs, warm.cost().requests(), warm.cost().bytes(), warmMs, oneNew.cost().requests(), oneNew.cost().bytes(), oneNewMs);
    }
  }

  /** The size of the body of a GET of {@code path} from the cluster's slurmrestd, asked with the testbed's token. */
  private static long plainBytes(Instance slurm, String path) throws IOException, InterruptedException {
    HttpResponse<String> response = SlurmrestdSmokeIT.get(slurm, path, slurm.readFirstLine("rest.token.file"));
    assertEquals(200, response.statusCode(), () -> path + " at " + slurm.name() + ": " + response.body());
    return response.body().getBytes(StandardCharsets.UTF_8).length;
  }
}
