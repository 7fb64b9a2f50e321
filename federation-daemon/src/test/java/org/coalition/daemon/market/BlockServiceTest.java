package org.coalition.daemon.market;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.OptionalDouble;
import org.coalition.coordination.FederatedJob;
import org.coalition.coordination.JobSpec;
import org.coalition.daemon.market.BlockService.Verdict;
import org.coalition.policy.contracts.ContractTerms;
import org.junit.jupiter.api.Test;

/**
 * What a buyer's jobs show of its seller's service in a slot of an hour (grace 15 min) of a block
 * of 8 cores: the federation's clock runs 1,000 s behind the wall clock here, as a job's release is
 * on the former.
 */
class BlockServiceTest {
  private static final Instant SLOT = Instant.parse("2026-12-03T01:00:00Z");
  private static final Duration HOUR = Duration.ofHours(1);
  private static final ContractTerms TERMS = new ContractTerms("north", "south", SLOT.getEpochSecond(), "batch.cpu8x1", 100, 100);

  /** The federation's clock at wall time {@code at}. */
  private static double federation(Instant at) {
    return at.getEpochSecond() - 1000.0;
  }

  /** A job of north's published at wall time {@code at}, at {@code executor} ("" for none). */
  private static FederatedJob job(String id, int cores, long seconds, Instant at, String executor, boolean finished) {
    return new FederatedJob(JobSpec.builder(id, "north").cores(cores).walltimeSeconds(seconds).release(federation(at)).build(), executor,
        finished);
  }

  private static Verdict read(Instant now, FederatedJob... mine) {
    return BlockService.read(List.of(mine), OptionalDouble.empty(), TERMS, HOUR, federation(now), now).verdict();
  }

  @Test
  void theGraceIsAQuarterOfTheSlotBetweenAMinuteAndTen() {
    assertEquals(Duration.ofMinutes(1), BlockService.grace(Duration.ofSeconds(150)), "the testbed's short slots");
    assertEquals(Duration.ofMinutes(10), BlockService.grace(HOUR), "an hour's quarter is more than ten minutes");
    assertEquals(Duration.ofMinutes(5), BlockService.grace(Duration.ofMinutes(20)));
  }

  @Test
  void aJobTheSellerTookRunningOrFinishedIsService() {
    Instant late = SLOT.plus(Duration.ofMinutes(40));
    FederatedJob waiting = job("1", 4, 600, SLOT, "", false);
    assertEquals(Verdict.SERVED, read(late, waiting, job("2", 4, 600, SLOT, "south", false)));
    assertEquals(Verdict.SERVED, read(late, waiting, job("3", 4, 600, SLOT, "south", true)), "finished there, its result not yet home");
    OptionalDouble inSlot = OptionalDouble.of(federation(SLOT.plusSeconds(30)));
    assertEquals(Verdict.SERVED, BlockService.read(List.of(waiting), inSlot, TERMS, HOUR, federation(late), late).verdict(),
        "a run that started in the slot, taken home since");
    OptionalDouble before = OptionalDouble.of(federation(SLOT.minusSeconds(30)));
    assertEquals(Verdict.UNSERVED, BlockService.read(List.of(waiting), before, TERMS, HOUR, federation(late), late).verdict(),
        "a run that started before the slot is best-effort sharing, not the slot's service");
  }

  @Test
  void aJobThatFitsAndWaitedTheGraceSinceTheSlotOpenedOrItWasPublishedIsRefusal() {
    FederatedJob early = job("1", 8, 600, SLOT.minus(HOUR), "", false); // published an hour before the slot: waits from its start
    assertEquals(Verdict.NOT_YET, read(SLOT.plus(Duration.ofMinutes(9)), early));
    assertEquals(Verdict.UNSERVED, read(SLOT.plus(Duration.ofMinutes(10)), early));
    FederatedJob later = job("2", 2, 600, SLOT.plus(Duration.ofMinutes(20)), "", false);
    assertEquals(Verdict.NOT_YET, read(SLOT.plus(Duration.ofMinutes(29)), later));
    assertEquals(Verdict.UNSERVED, read(SLOT.plus(Duration.ofMinutes(30)), later));
  }

  @Test
  void whatTheBlockCouldNotTakeOrAThirdSiteTookIsNoEvidence() {
    Instant late = SLOT.plus(Duration.ofMinutes(40));
    assertEquals(Verdict.NOT_YET, read(late, job("1", 9, 600, SLOT, "", false)), "more cores than the block");
    assertEquals(Verdict.NOT_YET, read(late, job("2", 4, 3600, SLOT, "", false)), "its time limit and a pilot's margin end after the slot");
    assertEquals(Verdict.NOT_YET, read(late, job("3", 4, 600, SLOT, "west", false)), "another site took it");
    assertEquals(Verdict.NOT_YET, read(late), "nothing waited");
  }
}
