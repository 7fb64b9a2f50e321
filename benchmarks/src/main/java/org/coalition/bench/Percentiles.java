package org.coalition.bench;

import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;

/** Nearest-rank percentiles of measured values, rounded to a tenth, as every benchmark here prints them. */
final class Percentiles {
  private Percentiles() {}

  /** The nearest-rank {@code q}-quantile of {@code sorted} (ascending); 0 when there is none. */
  static double of(double[] sorted, double q) {
    if (sorted.length == 0) {
      return 0;
    }
    int i = (int) Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1);
    return round(sorted[Math.max(0, i)]);
  }

  /** p50, p90, p99 and max of {@code values}, with their count as {@code n}. */
  static Map<String, Double> summary(Collection<Double> values) {
    double[] sorted = values.stream().mapToDouble(Double::doubleValue).toArray();
    Arrays.sort(sorted);
    Map<String, Double> out = new LinkedHashMap<>();
    out.put("n", (double) sorted.length);
    out.put("p50", of(sorted, 0.50));
    out.put("p90", of(sorted, 0.90));
    out.put("p99", of(sorted, 0.99));
    out.put("max", sorted.length == 0 ? 0 : round(sorted[sorted.length - 1]));
    return out;
  }

  static double round(double v) {
    return Math.round(v * 10) / 10.0;
  }
}
