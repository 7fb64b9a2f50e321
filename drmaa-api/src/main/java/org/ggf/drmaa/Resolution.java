package org.ggf.drmaa;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.YearMonth;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.Calendar;

/**
 * Resolves a {@link PartialTimestamp}: the soonest time from a given instant on that matches the
 * fields set, modifiers then added. Unset fields below the smallest one set take their least
 * value; the others are searched, largest first, the way a clock runs. A time with every field
 * set is itself, even when it is past (a start time in the past means: start now).
 */
final class Resolution {
  private static final int[] ORDER = PartialTimestamp.order();
  private final Integer[] fixed = new Integer[ORDER.length];
  private final int[] mods = new int[ORDER.length];
  private final ZoneId zone;

  Resolution(PartialTimestamp t) {
    int lowestSet = -1;
    for (int i = 0; i < ORDER.length; i++) {
      if (t.isSetField(ORDER[i])) {
        fixed[i] = t.field(ORDER[i]);
        lowestSet = i;
      }
      mods[i] = t.getModifier(ORDER[i]);
    }
    for (int i = lowestSet + 1; i < ORDER.length; i++) {
      fixed[i] = ORDER[i] == Calendar.DAY_OF_MONTH ? 1 : 0; // below the smallest field set: its least value
    }
    try {
      zone = t.isSetField(Calendar.ZONE_OFFSET) ? ZoneOffset.ofTotalSeconds(t.field(Calendar.ZONE_OFFSET) / 1000) : t.getTimeZone().toZoneId();
    } catch (DateTimeException e) {
      throw new IllegalArgumentException("the partial timestamp's zone offset is out of range (-18:00 to +18:00): " + e.getMessage(), e);
    }
  }

  long soonestFrom(long nowMillis) {
    LocalDateTime now = LocalDateTime.ofInstant(Instant.ofEpochMilli(nowMillis + 999), zone).withNano(0);
    int[] from = {now.getYear() / 100, now.getYear() % 100, now.getMonthValue() - 1, now.getDayOfMonth(), now.getHour(), now.getMinute(),
        now.getSecond()};
    int[] found = new int[ORDER.length];
    if (Arrays.stream(fixed).allMatch(f -> f != null)) {
      found = Arrays.stream(fixed).mapToInt(Integer::intValue).toArray(); // a whole time is itself, even when past
    } else if (!search(0, true, from, found)) {
      throw new IllegalArgumentException("the partial timestamp matches no time from now on: " + Arrays.toString(fixed)
          + " (century, year, month, day, hour, minute, second)");
    }
    try {
      LocalDateTime at = LocalDateTime.of(found[0] * 100 + found[1], found[2] + 1, found[3], found[4], found[5], found[6])
          .plusYears(mods[0] * 100L + mods[1]).plusMonths(mods[2]).plusDays(mods[3]).plusHours(mods[4]).plusMinutes(mods[5])
          .plusSeconds(mods[6]);
      return at.atZone(zone).toInstant().toEpochMilli();
    } catch (DateTimeException e) {
      throw new IllegalArgumentException("the partial timestamp is no time: " + Arrays.toString(found) + " (century, year, month, day,"
          + " hour, minute, second): " + e.getMessage(), e);
    }
  }

  /** Lexicographically smallest completion at or after {@code from}, position by position. */
  private boolean search(int i, boolean tight, int[] from, int[] found) {
    if (i == ORDER.length) {
      return true;
    }
    int low = tight ? from[i] : (ORDER[i] == Calendar.DAY_OF_MONTH ? 1 : 0);
    int high = max(i, found);
    if (fixed[i] != null) {
      int v = fixed[i];
      if (v < low || v > high) {
        return false;
      }
      found[i] = v;
      return search(i + 1, tight && v == from[i], from, found);
    }
    for (int v = low; v <= high; v++) {
      found[i] = v;
      if (search(i + 1, tight && v == from[i], from, found)) {
        return true;
      }
    }
    return false;
  }

  private static int max(int i, int[] found) {
    return switch (ORDER[i]) {
      case PartialTimestamp.CENTURY -> 99;
      case Calendar.YEAR -> 99;
      case Calendar.MONTH -> 11;
      case Calendar.DAY_OF_MONTH -> YearMonth.of(found[0] * 100 + found[1], found[2] + 1).lengthOfMonth();
      case Calendar.HOUR_OF_DAY -> 23;
      default -> 59;
    };
  }
}
