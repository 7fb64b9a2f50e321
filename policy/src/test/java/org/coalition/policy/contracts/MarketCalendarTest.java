package org.coalition.policy.contracts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import org.junit.jupiter.api.Test;

class MarketCalendarTest {
  private static final LocalDate DAY = LocalDate.parse("2026-12-03");
  private static final long MIDNIGHT = Instant.parse("2026-12-03T00:00:00Z").getEpochSecond();

  @Test
  void theDefaultGateIsNoonTheDayBeforeAndRevealsCloseHalfAnHourLater() {
    assertEquals(Instant.parse("2026-12-02T12:00:00Z"), MarketCalendar.DEFAULT.gate(DAY));
    assertEquals(Instant.parse("2026-12-02T12:30:00Z"), MarketCalendar.DEFAULT.revealsClose(DAY));
    assertEquals(DAY, MarketCalendar.dayOf(MIDNIGHT + 23 * 3600));
    assertEquals(DAY.minusDays(1), MarketCalendar.dayOf(MIDNIGHT - 1));
  }

  @Test
  void aSlotIsSoldOnlyInItsDayOnTheGridAndAfterTheRevealsClose() {
    assertNull(MarketCalendar.DEFAULT.unsold(DAY, MIDNIGHT));
    assertNull(MarketCalendar.DEFAULT.unsold(DAY, MIDNIGHT + 23 * 3600));
    assertTrue(MarketCalendar.DEFAULT.unsold(DAY, MIDNIGHT + 24 * 3600).contains("not in the market of 2026-12-03"));
    assertTrue(MarketCalendar.DEFAULT.unsold(DAY, MIDNIGHT + 1800).contains("grid of 60-minute slots"));
    // a gate inside the day it sells, as the testbed runs it: 10:00, reveals until 10:30; the 10:00 slot is gone
    MarketCalendar sameDay = new MarketCalendar(Duration.ofHours(-10), Duration.ofMinutes(30), Duration.ofHours(1));
    assertTrue(sameDay.unsold(DAY, MIDNIGHT + 10 * 3600).contains("starts before the reveals"));
    assertNull(sameDay.unsold(DAY, MIDNIGHT + 11 * 3600));
  }

  @Test
  void aCalendarThatCannotSellADayIsRefusedByName() {
    assertThrows(IllegalArgumentException.class, () -> new MarketCalendar(Duration.ofHours(1), Duration.ZERO, Duration.ofHours(1)));
    assertThrows(IllegalArgumentException.class, () -> new MarketCalendar(Duration.ofHours(1), Duration.ofMinutes(5), Duration.ofMinutes(7)));
    assertThrows(IllegalArgumentException.class, () -> new MarketCalendar(Duration.ofHours(25), Duration.ofMinutes(5), Duration.ofHours(1)));
    assertThrows(IllegalArgumentException.class, () -> new MarketCalendar(Duration.ofMillis(1500), Duration.ofMinutes(5), Duration.ofHours(1)));
    IllegalArgumentException late = assertThrows(IllegalArgumentException.class,
        () -> new MarketCalendar(Duration.ofHours(-23), Duration.ofHours(2), Duration.ofHours(1)));
    assertTrue(late.getMessage().contains("within that day"), late.getMessage());
  }
}
