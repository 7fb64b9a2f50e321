package org.coalition.daemon.market;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;
import org.coalition.daemon.base.OwnerOnlyFolder;

/**
 * What the site's own history says of each UTC hour of the day, learnt from the daemon's
 * observations of its batch system: the local jobs arriving a second and the mean queue length
 * (seconds of the whole site's work waiting), what the market's prices need
 * ({@link org.coalition.policy.contracts.ContractPrices}, docs/decisions/0020-capacity-contracts.md).
 * An hour's figures are folded into its day-by-day average when it ends, the latest day weighing
 * {@link #WEIGHT}; an hour never seen has none. Arrivals are counted as the rises of the local
 * queue between observations (a second apart): a job that starts before an observation sees it
 * waiting is not counted, so on an idle site the rate is a lower bound, and so is its seller's
 * floor, as the paper's sell condition wants (idle capacity sells cheap). Kept in
 * {@code SPOOL/market/hours.json} (0600), replaced whole; a file that is not one is an error naming
 * it and saying that removing it starts the history again.
 */
public final class HourlyLoad {
  /** The latest day's weight in an hour's average. */
  static final double WEIGHT = 0.3;
  private static final long HOUR = 3600;
  private static final String FILE = "hours.json";
  private static final ObjectMapper JSON = JsonMapper.builder().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();

  /**
   * The file's content: the hour being counted (its start, epoch seconds), its arrivals and queue
   * samples so far, the last queue seen, and per hour of the day the averages (null: never seen).
   */
  record Record(long hour, long arrivals, double queueSum, long samples, int lastWaiting, Double[] rates, Double[] queues) {
    Record {
      if (rates == null || queues == null || rates.length != 24 || queues.length != 24 || arrivals < 0 || samples < 0) {
        throw new IllegalArgumentException("24 rates and 24 queue lengths, counts >= 0");
      }
    }
  }

  private final Path dir;
  private Record now;

  /** The history kept in {@code dir} (SPOOL/market), read back if there is one. */
  public HourlyLoad(Path dir) {
    this.dir = OwnerOnlyFolder.prepare(dir, "market's folder");
    this.now = read().orElse(new Record(-1, 0, 0, 0, -1, new Double[24], new Double[24]));
  }

  /** One observation at {@code epochSeconds}: {@code waiting} local jobs wait, {@code queueSeconds} of the site's work. */
  public synchronized void observe(long epochSeconds, int waiting, double queueSeconds) {
    long hour = epochSeconds - Math.floorMod(epochSeconds, HOUR);
    Record r = now;
    if (r.hour() != hour) {
      r = fold(r, hour);
    }
    long rise = r.lastWaiting() >= 0 ? Math.max(0, waiting - r.lastWaiting()) : 0;
    now = new Record(r.hour(), r.arrivals() + rise, r.queueSum() + queueSeconds, r.samples() + 1, waiting, r.rates(), r.queues());
  }

  /** The hour {@code r} counted, folded into its averages (if it was observed), and a new count for {@code hour}. */
  private static Record fold(Record r, long hour) {
    Double[] rates = r.rates().clone();
    Double[] queues = r.queues().clone();
    if (r.hour() >= 0 && r.samples() > 0) {
      int h = (int) Math.floorMod(r.hour() / HOUR, 24L);
      rates[h] = average(rates[h], (double) r.arrivals() / HOUR);
      queues[h] = average(queues[h], r.queueSum() / r.samples());
    }
    return new Record(hour, 0, 0, 0, r.lastWaiting(), rates, queues);
  }

  private static double average(Double before, double latest) {
    return before == null ? latest : (1 - WEIGHT) * before + WEIGHT * latest;
  }

  /** Local jobs arriving a second in the UTC hour {@code hourOfDay}, if that hour was ever seen to its end. */
  public synchronized Optional<Double> arrivalsPerSecond(int hourOfDay) {
    return Optional.ofNullable(now.rates()[hourOfDay]);
  }

  /** The mean queue length (seconds) in the UTC hour {@code hourOfDay}, if that hour was ever seen to its end. */
  public synchronized Optional<Double> queueSeconds(int hourOfDay) {
    return Optional.ofNullable(now.queues()[hourOfDay]);
  }

  /** Keeps the history in its file, whole or not at all. */
  public synchronized void save() {
    try {
      OwnerOnlyFolder.writeAtomically(dir, FILE, JSON.writeValueAsBytes(now));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + dir.resolve(FILE) + ": " + e.getMessage(), e);
    }
  }

  private Optional<Record> read() {
    Path file = dir.resolve(FILE);
    try {
      if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
        return Optional.empty();
      }
      if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS) || Files.size(file) > 64 * 1024) {
        throw new IllegalStateException(file + " is not a file of at most 64 KiB; remove it to start the site's hourly history again");
      }
      Record r = JSON.readValue(Files.readAllBytes(file), Record.class);
      if (Arrays.stream(r.rates()).anyMatch(HourlyLoad::bad) || Arrays.stream(r.queues()).anyMatch(HourlyLoad::bad)) {
        throw new IllegalStateException(file + " holds a negative or non-finite figure; remove it to start the site's hourly history again");
      }
      return Optional.of(r);
    } catch (JacksonException | IllegalArgumentException e) {
      throw new IllegalStateException(file + " is not the site's hourly history (" + e.getMessage() + "); remove it to start it again", e);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
    }
  }

  private static boolean bad(Double d) {
    return d != null && !(d >= 0 && Double.isFinite(d));
  }
}
