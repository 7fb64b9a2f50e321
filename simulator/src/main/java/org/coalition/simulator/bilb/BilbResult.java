package org.coalition.simulator.bilb;

import java.util.List;

/**
 * Scores as the BILB paper reports them: per site the mean and standard deviation of its round
 * scores; "typical" averages those over the non-overloaded sites.
 */
public record BilbResult(
    String balancer, int sites, int rounds, Score typical, Score overloaded, List<SiteScore> perSite, long jobs, long iterations) {

  /** A mean score and the (average) standard deviation that goes with it. */
  public record Score(double score, double std) {}

  /**
   * One site's mean score over the rounds that had jobs in their window, its std, and its
   * declared level at the end (the fixed one, or where learning took it).
   */
  public record SiteScore(int site, double score, double std, int rounds, double level) {}
}
