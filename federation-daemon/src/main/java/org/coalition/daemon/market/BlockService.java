package org.coalition.daemon.market;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Optional;
import java.util.OptionalDouble;
import org.coalition.coordination.FederatedJob;
import org.coalition.daemon.base.PilotMargin;
import org.coalition.policy.contracts.BlockType;
import org.coalition.policy.contracts.ContractTerms;

/**
 * What a buyer's own jobs in the federation show of its seller's service in an open slot
 * (docs/decisions/0020-capacity-contracts.md, "A seller who opens and gives nothing"): the
 * seller's {@code OPEN} note is its own word, and the holding fee is paid on what the buyer can
 * see. {@link Verdict#SERVED} when the seller has claimed a job of the buyer's (running there or
 * finished, its result not yet taken home), or gave back a run that started in the slot (the
 * home side's reading, kept in {@code BoughtSlots}); {@link Verdict#UNSERVED} when it has claimed
 * none and a job that fits the block (its cores, and its time limit with a pilot's margin inside
 * the slot) has waited unclaimed by anyone for the grace ({@link #grace}) since the slot opened or
 * since it was published, whichever is later; otherwise {@link Verdict#NOT_YET}. A job taken by a
 * third site or withdrawn to run at home is no evidence either way. Read from the federation's
 * records of the buyer's jobs, which a restarted daemon reads the same, and from the home side's
 * reading of runs taken home, which a restart loses (the records alone are read then).
 */
final class BlockService {
  /** What the buyer's jobs show. */
  enum Verdict { SERVED, UNSERVED, NOT_YET }

  /** A verdict, and the job it rests on ({@code detail} says which and how long it waited, for the decision line). */
  record Reading(Verdict verdict, String detail) {
    static final Reading NOT_YET = new Reading(Verdict.NOT_YET, "");
  }

  private static final Duration LEAST = Duration.ofMinutes(1);
  private static final Duration MOST = Duration.ofMinutes(10);

  private BlockService() {}

  /**
   * How long a job that fits an open block may wait unclaimed before the buyer takes it as the
   * seller's refusal: a quarter of the slot, at least a minute (a seller's step and its pilot's
   * start, a few seconds each on the testbed) and at most ten.
   */
  static Duration grace(Duration slot) {
    Duration quarter = slot.dividedBy(4);
    return quarter.compareTo(LEAST) < 0 ? LEAST : quarter.compareTo(MOST) > 0 ? MOST : quarter;
  }

  /**
   * The reading of contract {@code c}'s slot ({@code slot} long) at {@code now}, from the buyer's
   * jobs {@code mine} and the start of the latest run the seller gave back ({@code lastRun});
   * {@code federationNow} is the federation's clock at the same moment (a job's release and a
   * run's start are on it).
   */
  static Reading read(Collection<FederatedJob> mine, OptionalDouble lastRun, ContractTerms c, Duration slot, double federationNow,
      Instant now) {
    Optional<FederatedJob> taken = mine.stream().filter(f -> c.seller().equals(f.executor())).findFirst();
    if (taken.isPresent()) {
      return new Reading(Verdict.SERVED, "job " + taken.get().job().jobId() + (taken.get().finished() ? " ran there" : " runs there"));
    }
    Instant start = Instant.ofEpochSecond(c.slotStart());
    double startOnFederation = federationNow - Duration.between(start, now).toMillis() / 1000.0;
    if (lastRun.isPresent() && lastRun.getAsDouble() >= startOnFederation) {
      return new Reading(Verdict.SERVED, "a run of this site's started there " + Math.round(lastRun.getAsDouble() - startOnFederation)
          + " s into the slot and came home");
    }
    Instant end = start.plus(slot);
    long cores = BlockType.cores(c.blockType());
    Duration grace = grace(slot);
    for (FederatedJob f : mine) {
      if (f.claimed() || f.finished() || f.job().cores() > cores) {
        continue;
      }
      Instant published = now.minusMillis(Math.round((federationNow - f.job().release()) * 1000));
      Instant waitingSince = published.isAfter(start) ? published : start;
      boolean fits = !waitingSince.plusSeconds(f.job().walltimeSeconds() + PilotMargin.SECONDS).isAfter(end);
      Duration waited = Duration.between(waitingSince, now);
      if (fits && waited.compareTo(grace) >= 0) {
        return new Reading(Verdict.UNSERVED, "job " + f.job().jobId() + " (" + f.job().cores() + " cores, " + f.job().walltimeSeconds()
            + " s) waited " + waited.toSeconds() + " s unclaimed in the open slot (grace " + grace.toSeconds() + " s)");
      }
    }
    return Reading.NOT_YET;
  }
}
