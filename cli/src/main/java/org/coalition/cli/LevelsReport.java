package org.coalition.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.coalition.simulator.bilb.BilbResult;
import org.coalition.simulator.report.LineChart;

/**
 * How participation learning moved each site's declared level in {@code simulate bilb --learning}
 * (the BILB paper's Section 6.3): a table of the levels at rounds spaced as a logarithmic axis
 * spaces them, a sentence per site saying where it went, and the plot of the paper's Figures 4-5.
 */
final class LevelsReport {
  /** Sites the table shows; the JSON has them all. */
  private static final int TABLE_SITES = 12;
  /** A level at the bound after this share of the rounds since it first got there is "mostly" at it. */
  private static final double MOSTLY = 0.8;

  private LevelsReport() {
  }

  static void print(PrintWriter out, BilbResult r) {
    BilbResult.Levels levels = r.levels();
    int shown = Math.min(r.sites(), TABLE_SITES);
    out.printf("declared levels as learning moved them (bounded to %s..%s), at the end of round:%n", Output.number(levels.min(), 0),
        Output.number(levels.max(), 0));
    List<String> header = new ArrayList<>(List.of("round"));
    for (int i = 0; i < shown; i++) {
      header.add("site " + i);
    }
    List<List<String>> rows = new ArrayList<>();
    for (int k : rows(levels)) {
      List<String> row = new ArrayList<>(List.of(Integer.toString(k * levels.step())));
      for (int i = 0; i < shown; i++) {
        row.add(Output.number(levels.perSite().get(i).get(k), 2));
      }
      rows.add(row);
    }
    Output.table(out, header, rows);
    if (shown < r.sites()) {
      out.printf("(%d of %d sites shown; --json has every site's levels)%n", shown, r.sites());
    }
    boolean allAtBound = true;
    for (int i = 0; i < r.sites(); i++) {
      allAtBound &= levels.firstAtBound(i) >= 0 && levels.shareAtBound(i) >= MOSTLY;
      if (i < shown) {
        out.println("site " + i + ": " + where(levels, i));
      }
    }
    if (r.iterations() < r.rounds()) {
      out.printf("balancing ran %,d times in %,d rounds, so R stayed near 1 and learning had little to go by: a site whose jobs arrive"
          + " faster than it serves them (lambda x alpha x beta > 1, as an overloaded site of alpha = beta = 3 is) keeps a queue that"
          + " grows without bound, and this model runs the next iteration when the mean queue is worked off (simulator/README.md,"
          + " \"Learning\")%n", r.iterations(), r.rounds());
    }
    if (allAtBound) {
      out.printf("every site's level reached the bound %s and stayed there most of the time: a bound far above the queues turns BILB's"
          + " bounds off (Section 6.3), so the scores are close to those of every site declaring %s%n", Output.number(levels.max(), 0),
          Output.number(levels.max(), 0));
    }
  }

  /** Where a site's level went, in words. */
  private static String where(BilbResult.Levels levels, int site) {
    List<Double> path = levels.perSite().get(site);
    List<Double> last = path.subList(Math.max(1, path.size() - Math.max(1, path.size() / 10)), path.size());
    double low = last.stream().mapToDouble(Double::doubleValue).min().orElse(path.get(0));
    double high = last.stream().mapToDouble(Double::doubleValue).max().orElse(path.get(0));
    String tail = "its last tenth of rounds between " + Output.number(low, 2) + " and " + Output.number(high, 2);
    int first = levels.firstAtBound(site);
    if (first >= 0) {
      return "from " + Output.number(path.get(0), 2) + ", first at the bound " + Output.number(levels.max(), 0) + " after round " + first
          + ", at it after " + Math.round(100 * levels.shareAtBound(site)) + "% of the rounds since; " + tail;
    }
    return "from " + Output.number(path.get(0), 2) + " to " + Output.number(path.get(path.size() - 1), 2) + " at the end, never at the"
        + " bound; " + tail;
  }

  /** The recorded points the table shows: 0, 1, 2, 5, 10, 20, 50, ... and the last. */
  private static TreeSet<Integer> rows(BilbResult.Levels levels) {
    int last = levels.perSite().get(0).size() - 1;
    TreeSet<Integer> ks = new TreeSet<>(List.of(0, last));
    for (long decade = 1; decade <= last; decade *= 10) {
      for (long k : new long[] {decade, 2 * decade, 5 * decade}) {
        if (k <= last) {
          ks.add((int) k);
        }
      }
    }
    return ks;
  }

  static void plot(BilbResult r, double sigma, Path file) throws IOException {
    BilbResult.Levels levels = r.levels();
    LineChart chart = new LineChart("BILB: declared participation level per site, learning sigma = " + Output.number(sigma, 2) + ", "
        + r.sites() + " sites", "round", "level l (work units)", true,
        "Each site's level l after each round, moved by l += sigma * l * delta * (R - 1) with R = F / F_alone bounded to [1/2, 2]"
            + " (BILB paper, Section 6.3), kept within " + Output.number(levels.min(), 0) + ".." + Output.number(levels.max(), 0)
            + (r.overloaded() != null ? "; thick line: the overloaded site 0" : "; balancer " + r.balancer()));
    for (int i = 0; i < r.sites(); i++) {
      List<Double> path = levels.perSite().get(i);
      List<Integer> rounds = new ArrayList<>();
      for (int k = 0; k < path.size(); k++) {
        rounds.add(k * levels.step());
      }
      chart.line("site " + i, rounds, path, i == 0 && r.overloaded() != null);
    }
    chart.write(file);
  }
}
