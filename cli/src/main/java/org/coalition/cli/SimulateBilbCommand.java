package org.coalition.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.coalition.policy.balancing.AveragingBalancer;
import org.coalition.policy.balancing.Bilb;
import org.coalition.policy.balancing.LoadBalancer;
import org.coalition.simulator.bilb.BilbConfig;
import org.coalition.simulator.bilb.BilbModel;
import org.coalition.simulator.bilb.BilbResult;
import org.coalition.simulator.report.BarChart;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code coalition simulate bilb}: the BILB paper's divisible-load model (simulator/README.md). */
@Command(
    name = "bilb",
    mixinStandardHelpOptions = true,
    header = "The BILB paper's model: each site's score with the federation, round by round.",
    description = {
      "The BILB paper's model: Poisson arrivals, gamma job sizes, FCFS per site, rounds of length T;",
      "prints each site's score S (flow time alone / with the federation - 1, or minus its inverse),",
      "averaged over rounds, and the typical site's mean as the paper reports it."
    })
final class SimulateBilbCommand implements Callable<Integer> {
  /** A score that prints as 0.000. */
  private static final double PRINTED_ZERO = 5e-4;

  enum Balancer { bilb, averaging }

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;
  @CommandLine.Mixin SimulateCommand.Common common = new SimulateCommand.Common();

  @Option(names = "--sites", required = true, description = "Number of sites.")
  int sites;

  @Option(names = "--alpha", defaultValue = "2", description = "Gamma shape of job sizes (default ${DEFAULT-VALUE}).")
  double alpha;

  @Option(names = "--beta", defaultValue = "2", description = "Gamma scale of job sizes (default ${DEFAULT-VALUE}); mean size alpha * beta.")
  double beta;

  @Option(names = "--lambda", defaultValue = "0.2", description = "Arrival rate of jobs per site (default ${DEFAULT-VALUE}).")
  double lambda;

  @Option(names = "--period", defaultValue = "1000", description = "Length T of a round (default ${DEFAULT-VALUE}).")
  double period;

  @Option(names = "--rounds", defaultValue = "1000", description = "Rounds to simulate (default ${DEFAULT-VALUE}).")
  int rounds;

  @Option(names = "--participation", required = true, description = "Declared participation level l of every site.")
  double participation;

  @Option(names = "--overloaded-alpha", description = "Make site 0 overloaded: its gamma shape.")
  Double overloadedAlpha;

  @Option(names = "--overloaded-beta", description = "The overloaded site's gamma scale.")
  Double overloadedBeta;

  @Option(names = "--overloaded-participation", description = "The overloaded site's level (default 1000, as in the paper).")
  Double overloadedParticipation;

  @Option(names = "--balancer", defaultValue = "bilb", description = "bilb or averaging (default ${DEFAULT-VALUE}).")
  Balancer balancer;

  @Option(names = "--quantum", defaultValue = "1", description = "Unit of work and time of the discrete model; 0 for continuous (default ${DEFAULT-VALUE}).")
  double quantum;

  @Option(names = "--learning", defaultValue = "0", paramLabel = "SIGMA",
      description = "Learn levels each round with coefficient SIGMA in (0, 1] (the paper's Section 6.3); 0 keeps them fixed (default).")
  double learning;

  @Option(names = "--plot-levels", paramLabel = "FILE.png|FILE.svg",
      description = "With --learning: also draw each site's declared level round by round (the paper's Figures 4-5).")
  Path plotLevels;

  @Override
  public Integer call() throws Exception {
    BilbConfig.Overloaded overloaded = null;
    if (overloadedAlpha != null || overloadedBeta != null || overloadedParticipation != null) {
      if (overloadedAlpha == null || overloadedBeta == null) {
        throw new IllegalArgumentException("an overloaded site needs both --overloaded-alpha and --overloaded-beta");
      }
      overloaded = new BilbConfig.Overloaded(overloadedAlpha, overloadedBeta,
          overloadedParticipation == null ? 1000 : overloadedParticipation);
    }
    LoadBalancer lb = balancer == Balancer.bilb ? new Bilb() : new AveragingBalancer();
    BilbConfig config = new BilbConfig(sites, alpha, beta, lambda, period, rounds, participation, overloaded, lb,
        common.seed, 0.2, 0.8, quantum, learning);
    if (common.plot != null) {
      BarChart.checkTarget(common.plot);
    }
    if (plotLevels != null) {
      if (learning == 0) {
        throw new IllegalArgumentException("--plot-levels draws how learning moved the levels: give --learning SIGMA too");
      }
      BarChart.checkTarget(plotLevels);
    }
    PrintWriter out = spec.commandLine().getOut();
    BilbResult result = new BilbModel(config).run(new ProgressBar(spec.commandLine().getErr(), "rounds simulated", !common.noProgress));
    if (result.perSite().stream().allMatch(s -> s.rounds() == 0 || (Math.abs(s.score()) < PRINTED_ZERO && s.std() < PRINTED_ZERO))) {
      // #51: a saturated model scored every site 0 without a word
      spec.commandLine().getErr().println("coalition simulate bilb: warning: every score is 0 to three decimals: balancing changed next to"
          + " nothing for any site in any round; the model is saturated (jobs arrive faster than the sites serve them: lower --lambda"
          + " or raise --period), or the levels are 0, or it is too short (raise --rounds)");
      spec.commandLine().getErr().flush();
    }
    if (common.json) {
      Output.json(out, result); // Jackson writes the result record as it is
    } else {
      print(out, result);
    }
    if (common.plot != null) {
      String levels = "levels l = " + Output.number(participation, 0) + (overloaded == null ? ""
          : " (overloaded site 0: " + Output.number(overloaded.participation(), 0) + ")");
      BarChart chart = new BarChart("BILB: mean score per site, " + sites + " sites, " + levels, "site", "score S",
          "S = F_alone / F - 1 when a site's jobs finish sooner than alone, 1 - F / F_alone otherwise (F: its jobs' total flow time in a"
          + " round); bars: the mean over " + rounds + " rounds, error bars one standard deviation; balancer " + balancer);
      result.perSite().forEach(s -> chart.bar("site " + s.site(), s.score(), s.std())); // error bars: one standard deviation over rounds
      chart.write(common.plot);
      spec.commandLine().getErr().println("plot written to " + common.plot);
    }
    if (plotLevels != null) {
      LevelsReport.plot(result, learning, plotLevels);
      spec.commandLine().getErr().println("levels plot written to " + plotLevels);
    }
    return ExitCodes.OK;
  }

  private static void print(PrintWriter out, BilbResult r) {
    out.printf("BILB model, balancer %s, %d sites, %d rounds: %,d jobs, %,d balancing iterations%n",
        r.balancer(), r.sites(), r.rounds(), r.jobs(), r.iterations());
    List<List<String>> rows = new ArrayList<>();
    for (BilbResult.SiteScore s : r.perSite()) {
      rows.add(List.of(Integer.toString(s.site()), Output.number(s.score(), 3), Output.number(s.std(), 3),
          Integer.toString(s.rounds()), Output.number(s.level(), 2)));
    }
    Output.table(out, List.of("site", "score", "std", "rounds", "level at the end"), rows);
    if (r.typical() != null) {
      out.printf("typical site: score %.3f, std %.3f%n", r.typical().score(), r.typical().std());
    }
    if (r.overloaded() != null) {
      out.printf("overloaded site 0: score %.3f, std %.3f%n", r.overloaded().score(), r.overloaded().std());
    }
    if (r.levels() != null) {
      LevelsReport.print(out, r);
    }
    out.flush();
  }
}
