package org.coalition.simulator.bilb;

import java.util.List;

/**
 * Scores as the BILB paper reports them: per site the mean and standard deviation of its round
 * scores; "typical" averages those over the non-overloaded sites. With learning, {@code levels}
 * is each site's declared level round by round (Section 6.3, Figures 4-5); null without.
 */
public record BilbResult(
    String balancer, int sites, int rounds, Score typical, Score overloaded, List<SiteScore> perSite, long jobs, long iterations,
    Levels levels) {

  /**
   * Each site's declared level as learning moved it: {@code perSite.get(i).get(k)} is site i's
   * level after round {@code k * step} (k = 0: the level it started with).
   *
   * @param step rounds between two recorded levels (1 unless the run is very long)
   * @param min the least level learning may reach
   * @param max the bound learning stops at (the paper's 1000)
   * @param perSite the levels, per site
   */
  public record Levels(int step, double min, double max, List<List<Double>> perSite) {
    public Levels {
      perSite = perSite.stream().map(List::copyOf).toList();
    }

    /**
     * The first round after which a site's level was at the bound.
     *
     * @param site the site
     * @return that round, or -1 when it never got there
     */
    public int firstAtBound(int site) {
      int k = firstPointAtBound(site);
      return k < 0 ? -1 : k * step;
    }

    /**
     * The share of a site's recorded levels from its first at the bound on that are at the bound.
     *
     * @param site the site
     * @return that share in [0, 1], or 0 when it never got there
     */
    public double shareAtBound(int site) {
      int first = firstPointAtBound(site);
      if (first < 0) {
        return 0;
      }
      List<Double> after = perSite.get(site).subList(first, perSite.get(site).size());
      return after.stream().filter(l -> l >= max).count() / (double) after.size();
    }

    /** The index of a site's first recorded level at the bound, or -1. */
    private int firstPointAtBound(int site) {
      List<Double> path = perSite.get(site);
      for (int k = 0; k < path.size(); k++) {
        if (path.get(k) >= max) {
          return k;
        }
      }
      return -1;
    }
  }

  /** A mean score and the (average) standard deviation that goes with it. */
  public record Score(double score, double std) {}

  /**
   * One site's mean score over the rounds that had jobs in their window, its std, and its
   * declared level at the end (the fixed one, or where learning took it).
   */
  public record SiteScore(int site, double score, double std, int rounds, double level) {}
}
