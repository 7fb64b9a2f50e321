package org.coalition.simulator.bilb;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.function.DoubleConsumer;
import org.coalition.policy.balancing.BalancingPlan;
import org.coalition.policy.balancing.ParticipationLearning;
import org.coalition.policy.balancing.SiteLoad;
import org.coalition.policy.balancing.Transfer;
import org.coalition.simulator.random.Variates;

/**
 * The BILB paper's divisible-load model (Sections 3.1, 4.2.2, 6.3). Each site processes its queue
 * FCFS at rate 1 (time-sharing: the whole site works on the head of the queue). A balancing
 * iteration moves queued work between sites with the configured {@code LoadBalancer} (the real
 * policy code); senders give up the tail of their queue, receivers append it. As in the paper's
 * averaging LB, "the next iteration of LB is performed at Lmean": at now + the mean queue length
 * (both balancers conserve load, so that is when received work is done); with every queue empty,
 * the next iteration runs when the next job arrives. An iteration due at the moment of a release
 * runs first (simulator/README.md says why). Every job's counterfactual completion, had its site been alone, is
 * computed alongside (FCFS, same arrivals and sizes).
 *
 * <p>With a quantum q (the paper's "discrete simulator"), sizes are rounded to whole units of q
 * (at least one), releases and iterations fall on the grid of multiples of q (the next point at
 * or after their continuous time). Transfers are not rounded: the paper moves "jobs or their fragments"
 * (simulator/README.md: rounding them to whole units hides what iterative balancing gains).
 *
 * <p>Score of a site in a round, over its jobs released in the round's scoring window, with F the
 * sum of flow times and F~ the counterfactual: {@code F~/F - 1} if {@code F < F~}, else
 * {@code -(F/F~ - 1)}.
 */
public final class BilbModel {
  private static final double EPS = 1e-9;
  /** Bounds of a learnt level: the paper's figures show levels between 1 and 1000. */
  static final double MIN_LEVEL = 1;
  static final double MAX_LEVEL = 1000;
  /** The most levels a run records, over all sites: a trajectory of a million points is more than a plot shows. */
  private static final long MAX_LEVEL_POINTS = 1_000_000;

  private final BilbConfig config;
  private final Site[] sites;
  private final double[][] flow;
  private final double[][] alone;
  private final ParticipationLearning learning;
  /** Each site's level at the start and after each recorded round (learning only), and how many rounds apart they are. */
  private final List<List<Double>> levels = new ArrayList<>();
  private final int levelStep;
  private final Trace trace;
  private long jobs;
  private long iterations;

  public BilbModel(BilbConfig config) {
    this(config, Trace.NONE);
  }

  /** A model that reports each arrival, move and completion to {@code trace} (for tests). */
  BilbModel(BilbConfig config, Trace trace) {
    this.config = config;
    this.trace = trace;
    Variates root = new Variates(config.seed());
    this.sites = new Site[config.sites()];
    for (int i = 0; i < sites.length; i++) {
      boolean overloaded = i == 0 && config.overloaded() != null;
      sites[i] = new Site(i, root.split(),
          overloaded ? config.overloaded().alpha() : config.alpha(),
          overloaded ? config.overloaded().beta() : config.beta(),
          overloaded ? config.overloaded().participation() : config.participation());
    }
    this.flow = new double[sites.length][config.rounds()];
    this.alone = new double[sites.length][config.rounds()];
    this.learning = config.learning() > 0 ? new ParticipationLearning(config.learning()) : null;
    this.levelStep = (int) Math.max(1, (long) config.rounds() * sites.length / MAX_LEVEL_POINTS + 1);
    if (learning != null) {
      for (Site s : sites) {
        levels.add(new ArrayList<>(List.of(s.level)));
      }
    }
  }

  /**
   * At the end of round {@code round}, each site adjusts its level from that round's window
   * (F and F~ of its jobs completed so far; the window ends 0.2 T before the decision, as in the
   * paper), kept within [{@value #MIN_LEVEL}, {@value #MAX_LEVEL}].
   */
  private void learn(int round) {
    for (Site s : sites) {
      double next = learning.next(s.level, flow[s.index][round], alone[s.index][round]).level();
      s.level = Math.max(MIN_LEVEL, Math.min(MAX_LEVEL, next));
      if ((round + 1) % levelStep == 0) {
        levels.get(s.index).add(s.level);
      }
    }
  }

  /** Runs the whole experiment; {@code progress} receives the fraction of simulated time done. */
  public BilbResult run(DoubleConsumer progress) {
    double end = config.rounds() * config.period();
    for (Site s : sites) {
      s.rawArrival = s.variates.exponential(config.lambda());
      s.nextArrival = onGrid(s.rawArrival);
    }
    double now = 0;
    double nextIteration = Double.POSITIVE_INFINITY;
    boolean iterateOnArrival = true;
    double reported = 0;
    double nextRound = config.period();
    while (true) {
      Site arriving = null;
      for (Site s : sites) {
        if (s.nextArrival < end && (arriving == null || s.nextArrival < arriving.nextArrival)) {
          arriving = s;
        }
      }
      double nextArrival = arriving == null ? Double.POSITIVE_INFINITY : arriving.nextArrival;
      while (learning != null && nextRound < end && nextRound <= Math.min(nextArrival, nextIteration)) {
        advance(now, nextRound);
        now = nextRound;
        learn((int) Math.round(nextRound / config.period()) - 1);
        nextRound += config.period();
      }
      if (nextIteration == Double.POSITIVE_INFINITY && nextArrival == Double.POSITIVE_INFINITY) {
        break;
      }
      boolean iterate;
      if (nextIteration <= nextArrival) {
        advance(now, nextIteration);
        now = nextIteration;
        iterate = true;
      } else {
        advance(now, nextArrival);
        now = nextArrival;
        arrive(arriving, now);
        iterate = iterateOnArrival;
      }
      if (iterate) {
        double mean = balance(now);
        iterateOnArrival = mean <= EPS;
        nextIteration = iterateOnArrival ? Double.POSITIVE_INFINITY : onGrid(now + mean);
      }
      if (progress != null && now - reported >= end / 100 && now <= end) {
        reported = now;
        progress.accept(now / end);
      }
    }
    if (progress != null) {
      progress.accept(1.0);
    }
    return result();
  }

  private void arrive(Site site, double now) {
    double size = site.variates.gamma(site.alpha, site.beta);
    double q = config.quantum();
    if (q > 0) {
      size = Math.max(q, Math.rint(size / q) * q);
    }
    int round = (int) Math.min(config.rounds() - 1, Math.floor(now / config.period()));
    double offset = now / config.period() - round;
    boolean counted = offset >= config.windowStart() && offset < config.windowEnd();
    Job job = new Job(site.index, now, round, counted);
    site.aloneEnd = Math.max(now, site.aloneEnd) + size;
    job.aloneCompletion = site.aloneEnd;
    site.append(new Segment(job, size));
    trace.arrived(site.index, now, size);
    site.rawArrival += site.variates.exponential(config.lambda());
    site.nextArrival = onGrid(site.rawArrival);
    jobs++;
  }

  /** One balancing iteration at {@code now}; returns the mean queue length. */
  private double balance(double now) {
    iterations++;
    List<SiteLoad> loads = new ArrayList<>(sites.length);
    double total = 0;
    for (Site s : sites) {
      loads.add(new SiteLoad(Integer.toString(s.index), Math.max(0, s.load), s.level));
      total += Math.max(0, s.load);
    }
    BalancingPlan plan = config.balancer().balance(loads);
    for (Transfer t : plan.transfers()) {
      if (t.amount() > EPS) {
        trace.moved(now, t.amount());
        move(sites[Integer.parseInt(t.from())], sites[Integer.parseInt(t.to())], t.amount());
      }
    }
    return total / sites.length;
  }

  /** Moves {@code amount} of work from the tail of {@code from}'s queue to the end of {@code to}'s. */
  private void move(Site from, Site to, double amount) {
    List<Segment> moved = new ArrayList<>();
    double left = amount;
    while (left > EPS && !from.queue.isEmpty()) {
      Segment tail = from.queue.peekLast();
      if (tail.amount <= left + EPS) {
        from.queue.pollLast();
        from.load -= tail.amount;
        left -= tail.amount;
        moved.add(tail);
      } else {
        tail.amount -= left;
        from.load -= left;
        tail.job.fragments++;
        moved.add(new Segment(tail.job, left));
        left = 0;
      }
    }
    // Keep the moved work in its original order at the receiver.
    for (int i = moved.size() - 1; i >= 0; i--) {
      to.append(moved.get(i));
    }
  }

  /** Every site works on its queue from {@code from} to {@code to}. */
  private void advance(double from, double to) {
    for (Site s : sites) {
      double clock = from;
      while (clock < to && !s.queue.isEmpty()) {
        Segment head = s.queue.peekFirst();
        double step = Math.min(head.amount, to - clock);
        clock += step;
        head.amount -= step;
        s.load -= step;
        if (head.amount <= EPS) {
          s.queue.pollFirst();
          s.load -= head.amount;
          if (--head.job.fragments == 0) {
            complete(head.job, clock);
          }
        }
      }
      if (s.queue.isEmpty()) {
        s.load = 0;
      }
    }
  }

  /** With a quantum, the next point of the time grid at or after {@code t}; else {@code t}. */
  private double onGrid(double t) {
    double q = config.quantum();
    return q > 0 ? Math.ceil(t / q - EPS) * q : t;
  }

  private void complete(Job job, double completion) {
    trace.completed(job.release, completion);
    if (job.counted) {
      flow[job.home][job.round] += completion - job.release;
      alone[job.home][job.round] += job.aloneCompletion - job.release;
    }
  }

  private BilbResult result() {
    List<BilbResult.SiteScore> perSite = new ArrayList<>();
    double typicalScore = 0;
    double typicalStd = 0;
    int typicalSites = 0;
    BilbResult.Score overloaded = null;
    for (Site s : sites) {
      double sum = 0;
      double squares = 0;
      int n = 0;
      for (int r = 0; r < config.rounds(); r++) {
        double f = flow[s.index][r];
        double fAlone = alone[s.index][r];
        if (f <= 0 || fAlone <= 0) {
          continue;
        }
        double score = f < fAlone ? fAlone / f - 1 : -(f / fAlone - 1);
        sum += score;
        squares += score * score;
        n++;
      }
      double mean = n == 0 ? 0 : sum / n;
      double std = n == 0 ? 0 : Math.sqrt(Math.max(0, squares / n - mean * mean));
      perSite.add(new BilbResult.SiteScore(s.index, mean, std, n, s.level));
      if (s.index == 0 && config.overloaded() != null) {
        overloaded = new BilbResult.Score(mean, std);
      } else {
        typicalScore += mean;
        typicalStd += std;
        typicalSites++;
      }
    }
    BilbResult.Score typical = typicalSites == 0 ? null
        : new BilbResult.Score(typicalScore / typicalSites, typicalStd / typicalSites);
    BilbResult.Levels path = learning == null ? null : new BilbResult.Levels(levelStep, MIN_LEVEL, MAX_LEVEL, levels);
    return new BilbResult(config.balancer().name(), sites.length, config.rounds(), typical, overloaded, perSite, jobs, iterations, path);
  }

  /** What happens inside a run, for tests that check the model's rules from outside. */
  interface Trace {
    Trace NONE = new Trace() { };

    /** A job of {@code size} arrives at {@code site} at {@code time}. */
    default void arrived(int site, double time, double size) {
    }

    /** An iteration at {@code time} moves {@code amount} of queued work between two sites. */
    default void moved(double time, double amount) {
    }

    /** A job released at {@code release} completes (its last fragment) at {@code completion}. */
    default void completed(double release, double completion) {
    }
  }

  private static final class Site {
    final int index;
    final Variates variates;
    final double alpha;
    final double beta;
    double level;
    final ArrayDeque<Segment> queue = new ArrayDeque<>();
    double load;
    double nextArrival;
    double rawArrival;
    double aloneEnd;

    Site(int index, Variates variates, double alpha, double beta, double level) {
      this.index = index;
      this.variates = variates;
      this.alpha = alpha;
      this.beta = beta;
      this.level = level;
    }

    void append(Segment segment) {
      queue.addLast(segment);
      load += segment.amount;
    }
  }

  private static final class Job {
    final int home;
    final double release;
    final int round;
    final boolean counted;
    double aloneCompletion;
    int fragments = 1;

    Job(int home, double release, int round, boolean counted) {
      this.home = home;
      this.release = release;
      this.round = round;
      this.counted = counted;
    }
  }

  private static final class Segment {
    final Job job;
    double amount;

    Segment(Job job, double amount) {
      this.job = job;
      this.amount = amount;
    }
  }
}
