package org.ggf.drmaa;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.Calendar;
import java.util.List;
import java.util.TimeZone;
import org.junit.jupiter.api.Test;

/** A partial time resolves to the soonest matching time from the moment it is read, as the standard's examples say. */
class PartialTimestampTest {
  private static final TimeZone UTC = TimeZone.getTimeZone("UTC");

  @Test
  void tenOClockReadAfterTenIsTomorrowAndReadBeforeTenIsToday() {
    PartialTimestamp t = new PartialTimestamp(UTC);
    t.set(Calendar.HOUR_OF_DAY, 10);
    t.set(Calendar.MINUTE, 0);
    assertEquals("2026-11-25T10:00:00Z", resolvedAt(t, "2026-11-24T11:01:00Z"));
    assertEquals("2026-12-01T10:00:00Z", resolvedAt(t, "2026-12-01T09:34:00Z"), "the same instance, read again later");
  }

  @Test
  void theFirstOfTheMonthAtHalfPastElevenIsNextMonthsFirst() {
    PartialTimestamp t = new PartialTimestamp(UTC);
    t.set(Calendar.DATE, 1);
    t.set(Calendar.HOUR_OF_DAY, 11);
    t.set(Calendar.MINUTE, 30);
    assertEquals("2026-12-01T11:30:00Z", resolvedAt(t, "2026-11-24T11:01:00Z"));
    assertEquals("2027-01-01T11:30:00Z", resolvedAt(t, "2026-12-01T11:30:01Z"), "past the first: the next month's, across the year");
  }

  @Test
  void theTwentyNinthOfFebruaryWaitsForALeapYear() {
    PartialTimestamp t = new PartialTimestamp(UTC);
    t.set(Calendar.MONTH, Calendar.FEBRUARY);
    t.set(Calendar.DAY_OF_MONTH, 29);
    t.set(Calendar.HOUR_OF_DAY, 0);
    t.set(Calendar.MINUTE, 0);
    assertEquals("2028-02-29T00:00:00Z", resolvedAt(t, "2026-11-24T11:01:00Z"));
  }

  @Test
  void aWholeTimeIsItselfEvenWhenPast() {
    PartialTimestamp t = new PartialTimestamp(2026, Calendar.NOVEMBER, 20, 8, 15, 5);
    t.setTimeZone(UTC);
    assertEquals(20, t.get(PartialTimestamp.CENTURY), "four digits set the century");
    assertEquals(26, t.get(Calendar.YEAR));
    assertEquals("2026-11-20T08:15:05Z", resolvedAt(t, "2026-11-24T11:01:00Z"));
  }

  @Test
  void aZoneOffsetSetIsTheZoneTheFieldsMeanTimeIn() {
    PartialTimestamp t = new PartialTimestamp(UTC);
    t.set(Calendar.HOUR_OF_DAY, 10);
    t.set(Calendar.MINUTE, 0);
    t.set(Calendar.ZONE_OFFSET, 60 * 60 * 1000);
    assertEquals("2026-11-24T09:00:00Z", resolvedAt(t, "2026-11-24T08:30:00Z"));
  }

  @Test
  void addingPastDecemberWithTheYearUnsetLeavesTheYearAModifierTakenInWhenTheYearIsSet() {
    PartialTimestamp t = new PartialTimestamp(UTC);
    t.set(Calendar.MONTH, Calendar.DECEMBER);
    t.add(Calendar.MONTH, 1);
    assertEquals(Calendar.JANUARY, t.get(Calendar.MONTH));
    assertEquals(PartialTimestamp.UNSET, t.get(Calendar.YEAR));
    assertEquals(1, t.getModifier(Calendar.YEAR));
    t.set(Calendar.YEAR, 97);
    assertEquals(98, t.get(Calendar.YEAR));
    assertEquals(0, t.getModifier(Calendar.YEAR));
  }

  @Test
  void aDayModifierIsAddedAfterResolution() {
    PartialTimestamp t = new PartialTimestamp(UTC);
    t.set(Calendar.HOUR_OF_DAY, 10);
    t.set(Calendar.MINUTE, 0);
    t.add(Calendar.DAY_OF_MONTH, 1); // the day is unset: the addition is its modifier
    assertEquals(PartialTimestamp.UNSET, t.get(Calendar.DAY_OF_MONTH));
    assertEquals("2026-11-25T10:00:00Z", resolvedAt(t, "2026-11-24T09:00:00Z"));
  }

  @Test
  void aDayPastItsMonthsEndStaysUntilTheMonthIsKnown() {
    PartialTimestamp t = new PartialTimestamp(UTC);
    t.set(Calendar.DAY_OF_MONTH, 42);
    assertEquals(42, t.get(Calendar.DAY_OF_MONTH));
    t.set(Calendar.MONTH, Calendar.JANUARY);
    assertEquals(11, t.get(Calendar.DAY_OF_MONTH));
    assertEquals(Calendar.FEBRUARY, t.get(Calendar.MONTH));
  }

  @Test
  void anOutOfRangeSetCarriesIntoTheFieldAbove() {
    PartialTimestamp t = new PartialTimestamp(UTC);
    t.set(Calendar.HOUR_OF_DAY, 9);
    t.set(Calendar.MINUTE, 75);
    assertEquals(15, t.get(Calendar.MINUTE));
    assertEquals(10, t.get(Calendar.HOUR_OF_DAY));
  }

  @Test
  void daysCarryAMonthAtATimeByTheLengthOfEachMonth() {
    PartialTimestamp t = new PartialTimestamp(2026, Calendar.MARCH, 1, 10, 0);
    t.add(Calendar.DAY_OF_MONTH, -1);
    assertEquals(List.of(Calendar.FEBRUARY, 28), List.of(t.get(Calendar.MONTH), t.get(Calendar.DAY_OF_MONTH)), "the day before March 1st");
    t = new PartialTimestamp(2026, Calendar.JANUARY, 31, 10, 0);
    t.add(Calendar.DAY_OF_MONTH, 29);
    assertEquals(List.of(Calendar.MARCH, 1), List.of(t.get(Calendar.MONTH), t.get(Calendar.DAY_OF_MONTH)), "29 days after January 31st");
    t = new PartialTimestamp(2026, Calendar.DECEMBER, 31, 10, 0);
    t.add(Calendar.DAY_OF_MONTH, 1);
    assertEquals(List.of(27, Calendar.JANUARY, 1), List.of(t.get(Calendar.YEAR), t.get(Calendar.MONTH), t.get(Calendar.DAY_OF_MONTH)));
    t.setTimeZone(UTC);
    assertEquals("2027-01-01T10:00:00Z", resolvedAt(t, "2026-11-24T11:01:00Z"), "and it is a time");
  }

  @Test
  void rollWrapsOneFieldAndLeavesNoModifier() {
    PartialTimestamp t = new PartialTimestamp(UTC);
    t.set(Calendar.MINUTE, 30);
    t.roll(Calendar.MINUTE, 40);
    assertEquals(10, t.get(Calendar.MINUTE));
    assertEquals(PartialTimestamp.UNSET, t.get(Calendar.HOUR_OF_DAY));
    assertEquals(0, t.getModifier(Calendar.HOUR_OF_DAY));
    t.roll(Calendar.SECOND, true);
    assertEquals(PartialTimestamp.UNSET, t.get(Calendar.SECOND), "an unset field stays unset");
  }

  @Test
  void readingTheTimeResolvesFromNowOn() {
    PartialTimestamp t = new PartialTimestamp(UTC);
    t.set(Calendar.MINUTE, 0);
    long before = System.currentTimeMillis();
    long at = t.getTimeInMillis();
    assertTrue(at >= before && at <= before + 3_600_000 + 1_000, "within the hour: " + Instant.ofEpochMilli(at));
    assertEquals(0, Instant.ofEpochMilli(at).getEpochSecond() % 3600, "on the hour");
    assertEquals(PartialTimestamp.UNSET, t.get(Calendar.HOUR_OF_DAY), "reading the time sets no field");
  }

  @Test
  void equalsAndCloneCoverFieldsAndModifiers() {
    PartialTimestamp t = new PartialTimestamp(UTC);
    t.set(Calendar.HOUR_OF_DAY, 10);
    PartialTimestamp copy = (PartialTimestamp) t.clone();
    assertEquals(t, copy);
    assertEquals(t.hashCode(), copy.hashCode());
    copy.setModifier(Calendar.DAY_OF_MONTH, 1);
    assertNotEquals(t, copy);
    assertEquals(0, t.getModifier(Calendar.DAY_OF_MONTH), "the clone's modifiers are its own");
  }

  private static String resolvedAt(PartialTimestamp t, String now) {
    return Instant.ofEpochMilli(new Resolution(t).soonestFrom(Instant.parse(now).toEpochMilli())).toString();
  }
}
