package org.coalition.simulator.contracts;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.coalition.policy.contracts.Commitment;
import org.coalition.policy.contracts.Commitment.Reveal;
import org.coalition.policy.contracts.Contract;
import org.coalition.policy.contracts.ContractLifecycle;
import org.coalition.policy.contracts.ContractPrices;
import org.coalition.policy.contracts.ContractTerms;
import org.coalition.policy.contracts.DayAheadMarket;
import org.coalition.policy.contracts.SealedBid;
import org.coalition.policy.contracts.SealedBid.Side;
import org.coalition.simulator.swf.SwfJob;
import org.coalition.simulator.swf.SwfTrace;

/**
 * The contracts what-if (docs/decisions/0020): N sites replay one SWF log, site i shifted by
 * i x 24 h / N; each site schedules its jobs on its cores in submit order with conservative
 * backfilling ({@link #schedule}). Three runs: every site alone; one global pool of
 * every core (the contracts paper's RT); and day-ahead contracts, where for each slot of day d
 * (an hour by default) a site bids from what its own schedule did in the same slot of day d - 1
 * ({@link #auction}); the market's own rules ({@link DayAheadMarket}, McAfee) clear each slot, a
 * won block moves from seller to buyer for the slot, and the holding fee is paid as
 * {@link ContractLifecycle} says. Contracts are
 * honoured (the model has no failing seller).
 */
public final class ContractsModel {
  private final ContractsConfig config;
  /** The one block type every site trades: one node of the block's cores (the market's value bound reads them from its name). */
  private final String block;
  private final List<List<Job>> jobs = new ArrayList<>();

  /** A job of one site: submitted at {@code submit} seconds from the site's start, on {@code cores} cores. */
  record Job(int site, int index, long submit, int cores, long runtime) {}

  public ContractsModel(ContractsConfig config, SwfTrace trace) {
    this.config = config;
    this.block = "sim.cpu" + config.blockCores() + "x1";
    List<SwfJob> ran = trace.jobs().stream().filter(SwfJob::ran).sorted(Comparator.comparingDouble(SwfJob::submit)).toList();
    if (ran.isEmpty()) {
      throw new IllegalArgumentException(trace.file() + ": no job of the log ran, so there is nothing to replay");
    }
    double t0 = ran.get(0).submit();
    long span = config.days() * ContractsConfig.DAY;
    for (int i = 0; i < config.sites(); i++) {
      long offset = i * ContractsConfig.DAY / config.sites();
      List<Job> mine = new ArrayList<>();
      for (SwfJob j : ran) {
        double t = j.submit() - t0 - offset;
        if (t >= 0 && t < span) {
          mine.add(new Job(i, mine.size(), (long) t, Math.min(config.cores(), j.processors()), Math.max(1, Math.round(j.runTime()))));
        }
      }
      if (mine.isEmpty()) {
        throw new IllegalArgumentException(trace.file() + ": site " + i + " has no job in its " + config.days()
            + " days (the log is too short for this many days and sites; lower --days)");
      }
      jobs.add(mine);
    }
  }

  public ContractsResult run() {
    int n = config.sites();
    double[] alone = new double[n];
    for (int i = 0; i < n; i++) {
      alone[i] = meanWait(schedule(jobs.get(i), new CoreProfile(config.cores()), true), jobs.get(i));
    }
    List<Job> all = new ArrayList<>();
    jobs.forEach(all::addAll);
    all.sort(Comparator.comparingLong(Job::submit).thenComparingInt(Job::site).thenComparingInt(Job::index));
    long[] globalStarts = schedule(all, new CoreProfile(n * config.cores()), true);
    double[] globalWait = new double[n];
    int[] count = new int[n];
    for (int k = 0; k < all.size(); k++) {
      globalWait[all.get(k).site()] += globalStarts[k] - all.get(k).submit();
      count[all.get(k).site()]++;
    }
    List<List<long[]>> blocks = new ArrayList<>(); // per site: {slot start, cores added (negative: sold)}
    for (int i = 0; i < n; i++) {
      blocks.add(new ArrayList<>());
    }
    int[] bought = new int[n];
    int[] sold = new int[n];
    double[] credit = new double[n];
    int contracts = 0;
    for (int d = 1; d < config.days(); d++) {
      List<Yesterday> seen = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        seen.add(observe(i, d, blocks.get(i)));
      }
      for (int h = 0; h < config.slotsPerDay(); h++) {
        long slot = d * ContractsConfig.DAY + h * config.slotSeconds();
        for (ContractTerms t : auction(slot, h, seen)) {
          int buyer = Integer.parseInt(t.buyer().substring(1));
          int seller = Integer.parseInt(t.seller().substring(1));
          blocks.get(seller).add(new long[] {slot, -config.blockCores()});
          blocks.get(buyer).add(new long[] {slot, config.blockCores()});
          ContractLifecycle.Step agreed = ContractLifecycle.acknowledge(ContractLifecycle.acknowledge(Contract.cleared(t), t.buyer())
              .contract(), t.seller());
          for (ContractLifecycle.Credit moved : agreed.credits()) {
            credit[Integer.parseInt(moved.from().substring(1))] -= moved.amount();
            credit[Integer.parseInt(moved.to().substring(1))] += moved.amount();
          }
          bought[buyer]++;
          sold[seller]++;
          contracts++;
        }
      }
    }
    List<ContractsResult.Site> perSite = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      double withContracts = meanWait(schedule(jobs.get(i), profile(blocks.get(i)), true), jobs.get(i));
      perSite.add(new ContractsResult.Site(i, jobs.get(i).size(), alone[i], globalWait[i] / count[i], withContracts, bought[i], sold[i],
          credit[i]));
    }
    return new ContractsResult(perSite, contracts, 0);
  }

  /** What a site saw in each hour of the day before day {@code d}: the cores idle all hour, and the core-seconds its jobs waited. */
  record Yesterday(int[] idleCores, double[] waited, int[] arrivals) {}

  /** Site {@code i}'s own schedule of the jobs it had before day {@code d}, under the contracts made so far. */
  private Yesterday observe(int i, int d, List<long[]> made) {
    long dayStart = (d - 1) * ContractsConfig.DAY;
    long dayEnd = d * ContractsConfig.DAY;
    List<Job> known = jobs.get(i).stream().filter(j -> j.submit() < dayEnd).toList();
    CoreProfile p = profile(made);
    long[] starts = schedule(known, p, false);
    int[] idle = new int[config.slotsPerDay()];
    double[] waited = new double[config.slotsPerDay()];
    int[] arrivals = new int[config.slotsPerDay()];
    for (int h = 0; h < config.slotsPerDay(); h++) {
      long a = dayStart + h * config.slotSeconds();
      idle[h] = p.minFree(a, a + config.slotSeconds());
    }
    for (int k = 0; k < known.size(); k++) {
      Job j = known.get(k);
      if (j.submit() >= dayStart) {
        arrivals[(int) ((j.submit() - dayStart) / config.slotSeconds())]++;
      }
      for (int h = 0; h < config.slotsPerDay(); h++) {
        long a = dayStart + h * config.slotSeconds();
        long overlap = Math.min(starts[k], a + config.slotSeconds()) - Math.max(j.submit(), a);
        if (overlap > 0) {
          waited[h] += (double) overlap * j.cores();
        }
      }
    }
    return new Yesterday(idle, waited, arrivals);
  }

  private CoreProfile profile(List<long[]> made) {
    CoreProfile p = new CoreProfile(config.cores());
    for (long[] b : made) {
      p.add(b[0], b[0] + config.slotSeconds(), (int) b[1]);
    }
    return p;
  }

  /**
   * The contracts of the hour starting at {@code slot}, hour {@code h} of its day. A site sells
   * one block if a block's cores were idle the whole of that hour the day before (the contracts
   * paper's sell condition, "when there are idle servers"), at its floor; it buys one if its jobs
   * waited in that hour, at its ceiling (the waiting it would have run, at most the block's
   * core-seconds). Site 0's prices are multiplied by the configured misreport.
   */
  private List<ContractTerms> auction(long slot, int h, List<Yesterday> seen) {
    Map<String, String> commitments = new HashMap<>();
    List<Reveal> reveals = new ArrayList<>();
    for (int i = 0; i < config.sites(); i++) {
      Yesterday y = seen.get(i);
      double factor = i == 0 ? config.misreport() : 1;
      SealedBid bid = null;
      if (y.waited()[h] > 0) {
        long ceiling = (long) Math.min((double) config.blockCores() * config.slotSeconds(), y.waited()[h]);
        bid = new SealedBid("s" + i, slot, block, Side.BUY, Math.min(SealedBid.MAX_PRICE, Math.round(ceiling * factor)));
      } else if (y.idleCores()[h] >= config.blockCores()) {
        double rate = Math.max(y.arrivals()[h], 1.0 / config.slotsPerDay()) / config.slotSeconds();
        long floor = ContractPrices.sellFloor(0, rate, config.blockCores(), config.cores(), config.slotSeconds());
        bid = new SealedBid("s" + i, slot, block, Side.SELL, Math.min(SealedBid.MAX_PRICE, Math.round(floor * factor)));
      }
      if (bid != null) {
        String nonce = "%064x".formatted(slot * 1000 + i);
        commitments.put(bid.site(), Commitment.of(bid, nonce));
        reveals.add(new Reveal(bid, nonce));
      }
    }
    return DayAheadMarket.clear(slot, block, config.slotSeconds(), commitments, reveals).contracts();
  }

  /**
   * Start times of {@code queue} (in submit order) on {@code profile}, with conservative
   * backfilling as batch systems do it: each job in turn takes the earliest time its cores are
   * free for its whole run, so a later job may start before an earlier one but never delays it
   * (run times are known exactly: the log's, as if every estimate were right).
   */
  private static long[] schedule(List<Job> queue, CoreProfile profile, boolean forget) {
    long[] starts = new long[queue.size()];
    for (int k = 0; k < queue.size(); k++) {
      Job j = queue.get(k);
      long start = profile.earliestStart(j.submit(), j.cores(), j.runtime());
      profile.add(start, start + j.runtime(), -j.cores());
      if (forget && k % 256 == 0) {
        profile.forgetBefore(j.submit());
      }
      starts[k] = start;
    }
    return starts;
  }

  private static double meanWait(long[] starts, List<Job> queue) {
    double sum = 0;
    for (int k = 0; k < starts.length; k++) {
      sum += starts[k] - queue.get(k).submit();
    }
    return sum / starts.length;
  }
}
