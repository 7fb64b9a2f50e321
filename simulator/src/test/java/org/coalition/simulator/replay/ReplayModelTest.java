package org.coalition.simulator.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.coalition.policy.fairness.PolicyName;
import org.coalition.simulator.random.Variates;
import org.coalition.simulator.swf.SwfJob;
import org.coalition.simulator.swf.SwfJobs;
import org.coalition.simulator.swf.SwfTrace;
import org.junit.jupiter.api.Test;

class ReplayModelTest {
  private static SwfTrace randomTrace(long seed, int jobs) {
    Variates random = new Variates(seed);
    List<SwfJob> list = new ArrayList<>();
    double t = 0;
    for (int i = 0; i < jobs; i++) {
      t += random.exponential(1.0 / 60);
      list.add(SwfJobs.ran(i, t, 1 + random.exponential(1.0 / 1000), 1 + random.uniform(8), random.uniform(20)));
    }
    return new SwfTrace(Path.of("random.swf"), Map.of(), list);
  }

  @Test
  void everyJobRunsOnceAndRemoteRunsBalance() {
    SwfTrace trace = randomTrace(1, 5_000);
    for (PolicyName policy : PolicyName.values()) {
      ReplayResult r = new ReplayModel(trace, 4, 32, policy, 1).run();
      long jobs = 0;
      long remote = 0;
      long forOthers = 0;
      for (ReplayResult.SiteReport s : r.sites()) {
        jobs += s.jobs();
        remote += s.ranRemotely();
        forOthers += s.ranForOthers();
        assertTrue(s.meanWait() >= 0 && s.maxWait() >= s.meanWait(), s.toString());
      }
      assertEquals(5_000, jobs, policy + ": every job started exactly once");
      assertEquals(remote, forOthers, policy + ": every remote run is some site's run for others");
      assertEquals(10_000, r.events(), "one release and one end per job");
      assertEquals(0, r.clipped());
    }
  }

  @Test
  void oneSiteRunsEverythingAtHomeAndWideJobsAreClipped() {
    SwfTrace trace = new SwfTrace(Path.of("t.swf"), Map.of(), List.of(SwfJobs.ran(1, 0, 10, 64, 1), SwfJobs.ran(2, 1, 10, 1, 2)));
    ReplayResult r = new ReplayModel(trace, 1, 8, PolicyName.SIMPL_DIRECT, 1).run();
    assertEquals(0, r.sites().get(0).ranRemotely());
    assertEquals(1, r.clipped());
    // The clipped job holds all 8 cores for 10 s; the second job waits from 1 to 10.
    assertEquals(9.0 / 2, r.sites().get(0).meanWait(), 1e-9);
  }

  @Test
  void tooFewCoresAreRefused() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new ReplayModel(randomTrace(1, 1), 5, 4, PolicyName.FAIRSHARE, 1));
    assertTrue(e.getMessage().contains("4 cores cannot give 5 sites"), e.getMessage());
  }

  /**
   * #51, problem 10: what joining does for a site. Alone, every site runs exactly its own users'
   * jobs (the same users at the same sites as federated); with one site's users submitting
   * everything, that site's jobs wait less federated, and the work that ran elsewhere is counted.
   */
  @Test
  void eachSiteAloneRunsItsOwnJobsAndAnOverloadedSiteGainsFromJoining() {
    SwfTrace trace = randomTrace(3, 4_000);
    ReplayModel model = new ReplayModel(trace, 4, 32, PolicyName.SIMPL_DIRECT, 1);
    ReplayResult federated = model.run();
    ReplayResult alone = model.alone().run();
    for (int i = 0; i < 4; i++) {
      ReplayResult.SiteReport a = alone.sites().get(i);
      ReplayResult.SiteReport f = federated.sites().get(i);
      assertEquals(f.jobs(), a.jobs(), "the same users at the same site: the same jobs");
      assertEquals(0, a.ranRemotely() + a.ranForOthers());
      assertEquals(0.0, a.workElsewhere());
      assertTrue(a.meanFlow() >= a.meanWait() && f.meanFlow() >= f.meanWait(), f + " / " + a);
    }
    double alonePooled = 0;
    double federatedPooled = 0;
    for (int i = 0; i < 4; i++) {
      alonePooled += alone.sites().get(i).meanWait() * alone.sites().get(i).jobs();
      federatedPooled += federated.sites().get(i).meanWait() * federated.sites().get(i).jobs();
    }
    assertTrue(federatedPooled < alonePooled, "pooling the cores shortens the waits over all: " + federatedPooled + " < " + alonePooled);
    assertTrue(federated.sites().stream().anyMatch(s -> s.workElsewhere() > 0), "some work ran elsewhere: " + federated.sites());
  }
}
