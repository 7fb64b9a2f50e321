package org.coalition.simulator.cloudshare;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.DoubleConsumer;
import org.coalition.policy.fairness.PolicyName;
import org.coalition.policy.shapley.PairwiseScores;
import org.coalition.simulator.random.Variates;
import org.coalition.simulator.swf.SwfJob;
import org.coalition.simulator.swf.SwfReader;
import org.coalition.simulator.swf.SwfTrace;

/** Runs the CloudShare experiment: every (log, period, scenario) case, in parallel. */
public final class TracesExperiment {
  private static final double DAY = CloudShareCase.PERIOD_HOURS * 3600;

  private TracesExperiment() {}

  /**
   * @param progress receives the fraction of cases done
   * @throws IOException when a log cannot be read (a malformed line names file and line)
   */
  public static TracesReport run(TracesConfig config, DoubleConsumer progress) throws IOException {
    long began = System.nanoTime();
    List<CloudShareCase> cases = new ArrayList<>();
    List<TracesReport.TraceInfo> infos = new ArrayList<>();
    Variates root = new Variates(config.seed());
    for (var path : config.traces()) {
      SwfTrace trace = SwfReader.read(path);
      String name = path.getFileName().toString();
      int cores = config.totalCores();
      String from = "--cores";
      if (cores == 0) {
        var header = trace.headerNumber("MaxProcs");
        cores = header.map(Long::intValue).orElseGet(() -> peakProcessors(trace.jobs()));
        from = header.isPresent() ? "MaxProcs header" : "peak processors in use";
      }
      Variates traceRandom = root.split();
      long tasks = 0;
      for (double start : periods(trace, config.periods(), traceRandom)) {
        for (Scenario scenario : config.scenarios()) {
          CloudShareCase c = CloudShareCase.of(name, trace.jobs(), start, scenario, cores, config.sites(), traceRandom.split());
          tasks += c.tasks();
          cases.add(c);
        }
      }
      infos.add(new TracesReport.TraceInfo(name, cores, from, tasks));
    }
    List<CaseResult> results = evaluate(cases, config, root.nextSeed(), progress);
    List<TracesReport.ScenarioReport> reports = new ArrayList<>();
    for (Scenario scenario : config.scenarios()) {
      reports.add(summarise(scenario, results, config.algorithms()));
    }
    return new TracesReport(infos, reports, (System.nanoTime() - began) / 1e9);
  }

  private static List<CaseResult> evaluate(List<CloudShareCase> cases, TracesConfig config, long seed,
      DoubleConsumer progress) {
    ExecutorService pool = Executors.newFixedThreadPool(config.threads(), r -> {
      Thread t = new Thread(r, "cloudshare-case");
      t.setDaemon(true);
      return t;
    });
    try {
      AtomicInteger done = new AtomicInteger();
      List<Future<CaseResult>> futures = new ArrayList<>();
      for (int i = 0; i < cases.size(); i++) {
        CloudShareCase c = cases.get(i);
        long caseSeed = seed + i;
        futures.add(pool.submit(() -> {
          CaseResult r = CloudShareModel.evaluate(c, config.algorithms(), caseSeed);
          if (progress != null) {
            progress.accept((double) done.incrementAndGet() / cases.size());
          }
          return r;
        }));
      }
      List<CaseResult> results = new ArrayList<>();
      for (Future<CaseResult> f : futures) {
        results.add(f.get());
      }
      return results;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw new IllegalStateException(e.getCause());
    } finally {
      pool.shutdownNow();
    }
  }

  private static TracesReport.ScenarioReport summarise(Scenario scenario, List<CaseResult> results,
      List<PolicyName> algorithms) {
    PairwiseScores scores = new PairwiseScores();
    Map<String, Double> l1 = new LinkedHashMap<>();
    Map<String, Double> l2 = new LinkedHashMap<>();
    int n = 0;
    int cases = 0;
    for (CaseResult r : results) {
      if (r.input().scenario() != scenario) {
        continue;
      }
      cases++;
      for (CaseResult.Coalition coalition : r.coalitions()) {
        n++;
        scores.add(coalition.unfairnessL1());
        coalition.unfairnessL1().forEach((a, u) -> l1.merge(a, u, Double::sum));
        coalition.unfairnessL2().forEach((a, u) -> l2.merge(a, u, Double::sum));
      }
    }
    int judged = n;
    Map<String, Integer> points = new LinkedHashMap<>();
    for (PolicyName a : algorithms) {
      points.put(a.name(), scores.scores().getOrDefault(a.name(), 0));
    }
    l1.replaceAll((a, sum) -> judged == 0 ? 0 : sum / judged);
    l2.replaceAll((a, sum) -> judged == 0 ? 0 : sum / judged);
    return new TracesReport.ScenarioReport(scenario.number(), cases, judged, points, l1, l2);
  }

  /**
   * {@code count} random 24-hour period starts within the log, each holding at least one job that
   * ran (a period is drawn again, up to 1000 times, when it holds none).
   */
  static List<Double> periods(SwfTrace trace, int count, Variates random) {
    double first = Double.POSITIVE_INFINITY;
    double last = Double.NEGATIVE_INFINITY;
    for (SwfJob j : trace.jobs()) {
      if (j.ran()) {
        first = Math.min(first, j.submit());
        last = Math.max(last, j.submit());
      }
    }
    if (first > last) {
      throw new IllegalArgumentException(trace.file() + ": no job in the log ran (positive run time and processors)");
    }
    double span = Math.max(0, last - first - DAY);
    List<Double> starts = new ArrayList<>();
    for (int p = 0; p < count; p++) {
      double start = first;
      for (int attempt = 0; attempt < 1000; attempt++) {
        start = first + random.uniform() * span;
        if (anyRan(trace.jobs(), start)) {
          break;
        }
      }
      starts.add(start);
    }
    return starts;
  }

  private static boolean anyRan(List<SwfJob> jobs, double start) {
    for (SwfJob j : jobs) {
      if (j.ran() && j.submit() >= start && j.submit() < start + DAY) {
        return true;
      }
    }
    return false;
  }

  /** The most processors the log's jobs held at once (for logs without a MaxProcs header). */
  static int peakProcessors(List<SwfJob> jobs) {
    List<double[]> changes = new ArrayList<>();
    for (SwfJob j : jobs) {
      if (j.ran()) {
        double start = j.submit() + Math.max(0, j.waitTime());
        changes.add(new double[] {start, j.processors()});
        changes.add(new double[] {start + j.runTime(), -j.processors()});
      }
    }
    // Ends before starts at the same instant.
    changes.sort((a, b) -> a[0] != b[0] ? Double.compare(a[0], b[0]) : Double.compare(a[1], b[1]));
    long inUse = 0;
    long peak = 0;
    for (double[] c : changes) {
      inUse += (long) c[1];
      peak = Math.max(peak, inUse);
    }
    return (int) Math.min(Integer.MAX_VALUE, peak);
  }
}
