package org.ggf.drmaa;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.text.ParseException;
import java.util.Calendar;
import java.util.TimeZone;
import org.junit.jupiter.api.Test;

/** The DRMAA timestamp form, {@code [[[[CC]YY/]MM/]DD] hh:mm[:ss] [{-|+}UU:uu]}, written and read. */
class PartialTimestampFormatTest {
  private final PartialTimestampFormat format = new PartialTimestampFormat();

  @Test
  void everyFormReadsAndWritesBack() throws ParseException {
    for (String text : new String[] {"10:30", "10:30:05", "01 11:30", "11/25 10:00", "26/11/25 10:00", "2026/11/25 10:00:00 +01:00",
        "23:59 -05:30"}) {
      assertEquals(text, format.format(format.parse(text)), text);
    }
  }

  @Test
  void readingSetsOnlyTheFieldsGivenTheMonthCountedFromOne() throws ParseException {
    PartialTimestamp t = format.parse("2026/11/25 10:00 +01:00");
    assertEquals(20, t.get(PartialTimestamp.CENTURY));
    assertEquals(26, t.get(Calendar.YEAR));
    assertEquals(Calendar.NOVEMBER, t.get(Calendar.MONTH));
    assertEquals(25, t.get(Calendar.DAY_OF_MONTH));
    assertEquals(3_600_000, t.get(Calendar.ZONE_OFFSET));
    assertFalse(t.isSet(Calendar.SECOND));
    assertFalse(format.parse("10:00").isSet(Calendar.DAY_OF_MONTH));
  }

  @Test
  void theTwentyNinthOfAFebruaryOfAnyYearIsKept() throws ParseException {
    assertEquals(29, format.parse("02/29 10:00").get(Calendar.DAY_OF_MONTH));
  }

  @Test
  void badTextIsRefusedWithWhere() {
    assertEquals(0, assertThrows(ParseException.class, () -> format.parse("13/01 10:00")).getErrorOffset(), "month 13");
    assertEquals(0, assertThrows(ParseException.class, () -> format.parse("1:00")).getErrorOffset(), "one digit");
    assertEquals(3, assertThrows(ParseException.class, () -> format.parse("10:61")).getErrorOffset(), "minute 61");
    assertEquals(8, assertThrows(ParseException.class, () -> format.parse("2027/02/29 10:00")).getErrorOffset(), "no 29th in 2027's February");
    assertEquals(7, assertThrows(ParseException.class, () -> format.parse("10:00 +19:00")).getErrorOffset(), "an offset past 18 hours");
    ParseException trailing = assertThrows(ParseException.class, () -> format.parse("10:00 tomorrow"));
    assertEquals(5, trailing.getErrorOffset());
    assertEquals("a DRMAA timestamp ends at offset 5, then comes:  tomorrow", trailing.getMessage());
  }

  @Test
  void aTimestampTheFormCannotHoldIsRefusedNamingTheField() {
    PartialTimestamp yearWithoutDay = new PartialTimestamp();
    yearWithoutDay.set(Calendar.YEAR, 26);
    yearWithoutDay.set(Calendar.MONTH, 1);
    yearWithoutDay.set(Calendar.HOUR_OF_DAY, 1);
    yearWithoutDay.set(Calendar.MINUTE, 1);
    assertEquals("a DRMAA timestamp cannot hold a month without a day",
        assertThrows(IllegalArgumentException.class, () -> format.format(yearWithoutDay)).getMessage());
    assertEquals("a DRMAA timestamp needs the hour and the minute", assertThrows(IllegalArgumentException.class,
        () -> format.format(new PartialTimestamp())).getMessage());
  }

  @Test
  void modifiersAreLeftOutAsTheReferenceBindingLeavesThemOut() {
    PartialTimestamp tomorrow = new PartialTimestamp(10, 30, 0);
    tomorrow.add(Calendar.DAY_OF_MONTH, 1);
    // Grid Engine's binding writes "10:30:00" for this one (measured 2026-12-02), and so does this
    assertEquals("10:30:00", format.format(tomorrow));
    assertEquals(1, tomorrow.getModifier(Calendar.DAY_OF_MONTH), "writing it changes nothing");
  }

  @Test
  void aTimestampSetFromMillisecondsIsWrittenWithTheOffsetOfThatInstant() throws Exception {
    PartialTimestamp winter = new PartialTimestamp(TimeZone.getTimeZone("Europe/Paris"));
    winter.setTimeInMillis(1_700_000_000_000L); // 2023-11-14T22:13:20Z
    assertEquals("2023/11/14 23:13:20 +01:00", format.format(winter));
    PartialTimestamp summer = new PartialTimestamp(TimeZone.getTimeZone("Europe/Paris"));
    summer.setTimeInMillis(1_690_000_000_000L); // 2023-07-22T04:26:40Z, daylight saving time
    assertEquals("2023/07/22 06:26:40 +02:00", format.format(summer));
    assertEquals(1_690_000_000_000L, format.parse(format.format(summer)).getTimeInMillis(), "the text names the same instant");
  }
}
