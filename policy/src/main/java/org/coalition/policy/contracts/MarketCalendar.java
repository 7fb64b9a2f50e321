package org.coalition.policy.contracts;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Objects;

/**
 * When the day-ahead market's phases fall (docs/decisions/0020-capacity-contracts.md). The slots
 * of a UTC {@code day} are bid for until its gate, {@code beforeDay} before the day begins;
 * commitments count only if written before the gate, reveals only if written after it and before
 * the reveals close, {@code revealWindow} later; then every member clears. Slots are
 * {@code slot} long, aligned to UTC midnight, so a slot is named by its start alone.
 *
 * <p>{@code beforeDay} may be negative: a gate inside the day it sells (the testbed's runs, an
 * hour-ahead market); only slots that start after the reveals close are sold then.
 */
public record MarketCalendar(Duration beforeDay, Duration revealWindow, Duration slot) {
  private static final Duration DAY = Duration.ofDays(1);
  /** Gate at noon UTC the day before, reveals for half an hour, one-hour slots. */
  public static final MarketCalendar DEFAULT = new MarketCalendar(Duration.ofHours(12), Duration.ofMinutes(30), Duration.ofHours(1));

  public MarketCalendar {
    Objects.requireNonNull(beforeDay, "beforeDay");
    Objects.requireNonNull(revealWindow, "revealWindow");
    Objects.requireNonNull(slot, "slot");
    if (beforeDay.getNano() != 0 || revealWindow.getNano() != 0) {
      throw new IllegalArgumentException("the market's gate and reveal window are whole seconds, were " + beforeDay + " and " + revealWindow);
    }
    if (revealWindow.isNegative() || revealWindow.isZero()) {
      throw new IllegalArgumentException("the market's reveal window must be longer than 0, was " + revealWindow);
    }
    if (slot.compareTo(Duration.ofMinutes(1)) < 0 || DAY.toSeconds() % slot.toSeconds() != 0 || slot.getNano() != 0) {
      throw new IllegalArgumentException("a market slot must be whole seconds, at least a minute, and divide a day, was " + slot);
    }
    if (beforeDay.compareTo(DAY) > 0 || beforeDay.negated().plus(revealWindow).compareTo(DAY) >= 0) {
      throw new IllegalArgumentException("the market's gate must fall at most a day before the day it sells and its reveals must close"
          + " within that day, was " + beforeDay + " before and reveals for " + revealWindow);
    }
  }

  /** The instant {@code day} begins, UTC. */
  public static Instant start(LocalDate day) {
    return day.atStartOfDay(ZoneOffset.UTC).toInstant();
  }

  /** The UTC day a slot starting at {@code slotStart} (epoch seconds) belongs to. */
  public static LocalDate dayOf(long slotStart) {
    return LocalDate.ofEpochDay(Math.floorDiv(slotStart, DAY.toSeconds()));
  }

  /** Until when bids for {@code day}'s slots may be committed. */
  public Instant gate(LocalDate day) {
    return start(day).minus(beforeDay);
  }

  /** When reveals for {@code day} close and the day's auctions clear. */
  public Instant revealsClose(LocalDate day) {
    return gate(day).plus(revealWindow);
  }

  /**
   * Why a bid for the slot starting at {@code slotStart} cannot be made in {@code day}'s market,
   * or null when it can: the slot lies in the day, on the slot grid, and starts no earlier than
   * the reveals close.
   */
  public String unsold(LocalDate day, long slotStart) {
    long from = start(day).getEpochSecond();
    if (slotStart < from || slotStart >= from + DAY.toSeconds()) {
      return "slot " + Instant.ofEpochSecond(slotStart) + " is not in the market of " + day;
    }
    if ((slotStart - from) % slot.toSeconds() != 0) {
      return "slot " + Instant.ofEpochSecond(slotStart) + " is not on the grid of " + slot.toMinutes() + "-minute slots";
    }
    if (slotStart < revealsClose(day).getEpochSecond()) {
      return "slot " + Instant.ofEpochSecond(slotStart) + " starts before the reveals of " + day + " close at " + revealsClose(day);
    }
    return null;
  }
}
