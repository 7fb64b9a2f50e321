package org.coalition.daemon.market;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalLong;
import org.coalition.policy.contracts.ContractPrices;
import org.coalition.policy.contracts.SealedBid.Side;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The site's hourly history the market's prices learn from: arrivals counted as the queue's rises,
 * the hour's mean queue, folded day by day, kept across restarts; and the prices drawn from it.
 */
class HourlyLoadTest {
  private static final long DAY = Instant.parse("2026-12-03T00:00:00Z").getEpochSecond();
  private static final long THREE_AM = DAY + 3 * 3600;

  @TempDir Path tmp;

  /** The 03:00 hour: {@code jobs} local jobs arrive, one every {@code 3600 / jobs} s, and none starts, then the next hour begins. */
  private static void threeAm(HourlyLoad h, long day, int jobs, double queue) {
    for (int i = 0; i < jobs; i++) {
      h.observe(day + 3 * 3600 + (long) i * 3600 / jobs, i + 1, queue);
    }
    h.observe(day + 4 * 3600, 0, 0); // the next hour: the 03:00 one is folded
  }

  @Test
  void anHoursArrivalsAndQueueAreLearntAndFoldedDayByDay() {
    HourlyLoad h = new HourlyLoad(tmp.resolve("market"));
    assertEquals(Optional.empty(), h.arrivalsPerSecond(3), "an hour never seen has no figure");
    threeAm(h, DAY, 36, 600);
    assertEquals(35.0 / 3600, h.arrivalsPerSecond(3).orElseThrow(), 1e-12, "the first observation sets the level, each rise after it is one arrival");
    assertEquals(600, h.queueSeconds(3).orElseThrow(), 1e-9);
    threeAm(h, DAY + 86_400, 1, 0); // a quiet day after: one job, the queue rising from the 0 seen last
    assertEquals((0.7 * 35 + 0.3 * 1) / 3600, h.arrivalsPerSecond(3).orElseThrow(), 1e-12, "the latest day weighs 0.3");
    assertEquals(0.7 * 600, h.queueSeconds(3).orElseThrow(), 1e-9);
    assertEquals(Optional.empty(), h.arrivalsPerSecond(5));
  }

  @Test
  void theHistoryIsKeptAcrossARestartAndABrokenFileIsAnErrorThatSaysHowToRecover() throws Exception {
    HourlyLoad h = new HourlyLoad(tmp.resolve("market"));
    threeAm(h, DAY, 10, 100);
    h.save();
    HourlyLoad again = new HourlyLoad(tmp.resolve("market"));
    assertEquals(h.arrivalsPerSecond(3), again.arrivalsPerSecond(3));
    Files.writeString(tmp.resolve("market").resolve("hours.json"), "{\"hour\":1}");
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> new HourlyLoad(tmp.resolve("market")));
    assertTrue(e.getMessage().contains("hours.json") && e.getMessage().contains("remove it"), e.getMessage());
  }

  @Test
  void pricesComeFromTheSlotsHourAndNoneWithoutHistory() {
    HourlyLoad h = new HourlyLoad(tmp.resolve("market"));
    HistoryPrices prices = new HistoryPrices(h, () -> 64, () -> Duration.ofHours(1));
    assertEquals(OptionalLong.empty(), prices.price(Side.SELL, "batch.cpu8x1", THREE_AM), "no history of 03:00: nothing to judge by");
    assertEquals(OptionalLong.empty(), prices.price(Side.BUY, "batch.cpu8x1", THREE_AM));
    threeAm(h, DAY - 86_400, 36, 600);
    double rate = h.arrivalsPerSecond(3).orElseThrow();
    assertEquals(OptionalLong.of(ContractPrices.sellFloor(600, rate, 8, 64, 3600)), prices.price(Side.SELL, "batch.cpu8x1", THREE_AM));
    assertEquals(OptionalLong.of(ContractPrices.buyCeiling(600, 8, 64, 3600)), prices.price(Side.BUY, "batch.cpu8x1", THREE_AM));
    assertEquals(OptionalLong.empty(), prices.price(Side.SELL, "batch.cpu64x2", THREE_AM), "a block larger than the site: not judged");
  }
}
