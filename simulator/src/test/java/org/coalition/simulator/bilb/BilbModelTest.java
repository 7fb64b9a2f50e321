package org.coalition.simulator.bilb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.coalition.policy.balancing.AveragingBalancer;
import org.coalition.policy.balancing.Bilb;
import org.coalition.policy.balancing.LoadBalancer;
import org.junit.jupiter.api.Test;

class BilbModelTest {
  private static BilbConfig config(int sites, double level, LoadBalancer balancer, long seed) {
    return new BilbConfig(sites, 2, 2, 0.2, 1000, 50, level, null, balancer, seed, 0.2, 0.8, 0, 0);
  }

  private static BilbResult run(BilbConfig config) {
    return new BilbModel(config).run(null);
  }

  @Test
  void withoutParticipationNothingMovesAndEveryScoreIsZero() {
    BilbResult result = run(config(3, 0, new Bilb(), 1));
    for (BilbResult.SiteScore s : result.perSite()) {
      assertEquals(0, s.score(), 1e-9, "site " + s.site());
      assertEquals(50, s.rounds(), "every round had jobs in its window");
    }
  }

  @Test
  void aSiteAloneScoresZero() {
    assertEquals(0, run(config(1, 1000, new Bilb(), 2)).typical().score(), 1e-9);
  }

  @Test
  void theSameSeedGivesTheSameRun() {
    BilbResult a = run(config(2, 5, new Bilb(), 3));
    BilbResult b = run(config(2, 5, new Bilb(), 3));
    assertEquals(a, b);
    assertNotEquals(a.typical(), run(config(2, 5, new Bilb(), 4)).typical());
  }

  @Test
  void averagingAndUnboundedBilbAgreeOnTwoSites() {
    assertEquals(run(config(2, 1e9, new Bilb(), 5)).typical(), run(config(2, 1e9, new AveragingBalancer(), 5)).typical());
  }

  @Test
  void moreParticipationHelpsHomogeneousSites() {
    double low = run(config(2, 1, new Bilb(), 6)).typical().score();
    double high = run(config(2, 1000, new Bilb(), 6)).typical().score();
    assertTrue(low > 0, "even l = 1 helps: " + low);
    assertTrue(high > low, high + " <= " + low);
  }

  @Test
  void theOverloadedSiteIsReportedApart() {
    BilbConfig c = new BilbConfig(3, 2, 2, 0.2, 1000, 20, 5, new BilbConfig.Overloaded(3, 3, 1000), new Bilb(), 7, 0.2, 0.8, 0, 0);
    BilbResult result = run(c);
    assertTrue(result.overloaded() != null);
    assertEquals(3, result.perSite().size());
    assertNull(run(config(2, 5, new Bilb(), 7)).overloaded());
  }

  @Test
  void aWorkQuantumRoundsSizesReleasesAndIterationsButNotTransfers() {
    // Sizes Gamma(2, 2) have mean 4; with q = 1.5 every size, release and iteration must fall on
    // multiples of 1.5, and a size below 0.75 becomes one whole unit. Transfers are fragments of
    // any size (the paper moves "jobs or their fragments"), so some moves are off the grid.
    double q = 1.5;
    Recorder discrete = new Recorder(q);
    new BilbModel(new BilbConfig(2, 2, 2, 0.2, 1000, 20, 1000, null, new Bilb(), 8, 0.2, 0.8, q, 0), discrete).run(null);
    assertEquals(List.of(), discrete.offGrid, "everything on the grid of " + q);
    assertTrue(discrete.moves > 10 && discrete.completions > 100, discrete.moves + " moves, " + discrete.completions + " completions");
    assertTrue(discrete.sizes.contains(q), "some job smaller than half a unit took one whole unit: " + discrete.sizes.first());
    assertTrue(discrete.sizes.first() >= q, "no job is smaller than one unit: " + discrete.sizes.first());
    assertTrue(discrete.offGridMoves > 0, "every one of " + discrete.moves + " moves was whole units: transfers were rounded");
    // The same run without a quantum has sizes and moves off that grid: the check above can fail.
    Recorder continuous = new Recorder(q);
    new BilbModel(new BilbConfig(2, 2, 2, 0.2, 1000, 20, 1000, null, new Bilb(), 8, 0.2, 0.8, 0, 0), continuous).run(null);
    assertTrue(continuous.offGridCount > 100, "without a quantum: " + continuous.offGridCount + " values off the grid");
  }

  /** Records what a run does and every value that is not a whole number of quanta. */
  private static final class Recorder implements BilbModel.Trace {
    private final double quantum;
    private final List<String> offGrid = new ArrayList<>(); // the first five
    private int offGridCount;
    private final TreeSet<Double> sizes = new TreeSet<>();
    private int moves;
    private int offGridMoves;
    private int completions;

    Recorder(double quantum) {
      this.quantum = quantum;
    }

    private void check(String what, double value) {
      double units = value / quantum;
      if (Math.abs(units - Math.rint(units)) > 1e-6 && ++offGridCount <= 5) {
        offGrid.add(what + " " + value);
      }
    }

    @Override
    public void arrived(int site, double time, double size) {
      sizes.add(size);
      check("release", time);
      check("size", size);
    }

    @Override
    public void moved(double time, double amount) {
      moves++;
      check("iteration", time);
      double units = amount / quantum;
      if (Math.abs(units - Math.rint(units)) > 1e-6) {
        offGridMoves++;
      }
    }

    @Override
    public void completed(double release, double completion) {
      completions++;
    }
  }

  @Test
  void badSettingsNameTheOption() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new BilbConfig(0, 2, 2, 0.2, 1000, 1, 1, null, new Bilb(), 1, 0.2, 0.8, 0, 0));
    assertTrue(e.getMessage().startsWith("--sites"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> new BilbConfig(2, 2, 2, -1, 1000, 1, 1, null, new Bilb(), 1, 0.2, 0.8, 0, 0));
    assertTrue(e.getMessage().startsWith("--lambda"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> new BilbConfig(2, 2, 2, 0.2, 1000, 1, 1, new BilbConfig.Overloaded(0, 1, 1), new Bilb(), 1, 0.2, 0.8, 0, 0));
    assertTrue(e.getMessage().startsWith("--overloaded-alpha"), e.getMessage());
  }

  @Test
  void learntLevelsRiseWhenBalancingPaysAndFallForTheSiteThatOnlyLoses() {
    // Section 6.3: homogeneous sites gain, so their levels climb from 5; with an overloaded
    // partner (alpha = beta = 3, level 1000) the normal site gains nothing and its level falls.
    BilbResult homogeneous = run(new BilbConfig(2, 2, 2, 0.2, 1000, 60, 5, null, new Bilb(), 3, 0.2, 0.8, 1, 0.5));
    for (BilbResult.SiteScore s : homogeneous.perSite()) {
      assertTrue(s.level() > 5, "homogeneous site " + s.site() + " ends at level " + s.level());
    }
    BilbResult overloaded = run(new BilbConfig(2, 2, 2, 0.2, 1000, 60, 5, new BilbConfig.Overloaded(3, 3, 1000), new Bilb(),
        3, 0.2, 0.8, 1, 0.5));
    double normal = overloaded.perSite().get(1).level();
    assertTrue(normal < 5, "the normal site beside an overloaded one ends at level " + normal);
    assertTrue(normal >= BilbModel.MIN_LEVEL);
    assertTrue(overloaded.perSite().get(0).level() <= BilbModel.MAX_LEVEL);
    // The trajectory: the start, then each round's decision, ending where the site ended.
    List<Double> path = homogeneous.levels().perSite().get(0);
    assertEquals(60, path.size());
    assertEquals(5, path.get(0));
    assertEquals(homogeneous.perSite().get(0).level(), path.get(path.size() - 1));
    // Fixed levels stay where they were set, and no trajectory is kept.
    BilbResult fixed = run(config(2, 5, new Bilb(), 3));
    assertEquals(5, fixed.perSite().get(0).level());
    assertNull(fixed.levels());
  }
}
