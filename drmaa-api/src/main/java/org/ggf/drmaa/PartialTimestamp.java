package org.ggf.drmaa;

import java.time.Instant;
import java.time.YearMonth;
import java.time.ZonedDateTime;
import java.util.Arrays;
import java.util.Calendar;
import java.util.GregorianCalendar;
import java.util.Locale;
import java.util.TimeZone;

/**
 * A time given in part, such as "at 10:30" or "on the 1st at 11:30", as a job's start or
 * deadline time: fields left unset are resolved, when the time is read with {@link #getTime()}
 * or {@link #getTimeInMillis()}, to the soonest time from then on that matches the fields set.
 * Resolved at 11:01 on November 24th, "10:00" is 10:00 on November 25th; resolved again at 9:34 on
 * December 1st, it is 10:00 on December 1st. Every other read ({@link #get}) answers the field as
 * set, or {@link #UNSET}.
 *
 * <p>The fields used are {@link #CENTURY} (the first digits of the year; it shares its number
 * with {@code ERA}, which is not used), {@code YEAR} (the last two digits, 0 to 99; setting a
 * year of three or more digits sets the century too), {@code MONTH}, {@code DAY_OF_MONTH},
 * {@code HOUR_OF_DAY}, {@code MINUTE}, {@code SECOND} and {@code ZONE_OFFSET} (milliseconds; when
 * unset the calendar's time zone applies). Other fields are kept but do not take part in
 * resolution. Unset fields below the smallest set one resolve to their least value (so "10:00"
 * means 10:00:00).
 *
 * <p>Each field also has a <em>modifier</em>, a number added to it after resolution: "the day
 * after" is a day modifier of 1. {@link #add} on an unset field adds to its modifier, and an
 * {@code add} or an out-of-range {@link #set} that carries into an unset field (December plus one
 * month, with the year unset) leaves the carry there as that field's modifier; a later
 * {@code set} of the field takes its modifier in. {@link #roll} changes only the field rolled,
 * wrapping in the field's range (a month is taken to have 31 days when it is not known), and
 * never leaves a modifier.
 */
public class PartialTimestamp extends Calendar {
  /** The field holding the year's leading digits (the DRMAA timestamp's {@code CC}); the same number as {@code ERA}. */
  public static final int CENTURY = 0;
  /** What {@link #get} answers for a field not set. */
  public static final int UNSET = Integer.MAX_VALUE;

  private static final long serialVersionUID = 1L;
  /** The resolved fields, largest first: century, year, month, day, hour, minute, second. */
  private static final int[] ORDER = {CENTURY, YEAR, MONTH, DAY_OF_MONTH, HOUR_OF_DAY, MINUTE, SECOND};
  private static final int LAST_CENTURY = 99;
  private static final GregorianCalendar GREGORIAN = new GregorianCalendar();
  private int[] modifiers = new int[FIELD_COUNT];

  /** Nothing set, in the default time zone and locale. */
  public PartialTimestamp() {
    this(TimeZone.getDefault(), Locale.getDefault(Locale.Category.FORMAT));
  }

  /**
   * Nothing set, in the given time zone.
   *
   * @param zone the time zone unset zone offsets resolve in
   */
  public PartialTimestamp(TimeZone zone) {
    this(zone, Locale.getDefault(Locale.Category.FORMAT));
  }

  /**
   * Nothing set, in the given locale.
   *
   * @param aLocale the locale
   */
  public PartialTimestamp(Locale aLocale) {
    this(TimeZone.getDefault(), aLocale);
  }

  /**
   * Nothing set, in the given time zone and locale.
   *
   * @param zone the time zone unset zone offsets resolve in
   * @param aLocale the locale
   */
  public PartialTimestamp(TimeZone zone, Locale aLocale) {
    super(zone, aLocale);
    clear();
  }

  /**
   * A time of day.
   *
   * @param hour {@code HOUR_OF_DAY}
   * @param minute {@code MINUTE}
   * @param second {@code SECOND}
   */
  public PartialTimestamp(int hour, int minute, int second) {
    this();
    set(HOUR_OF_DAY, hour);
    set(MINUTE, minute);
    set(SECOND, second);
  }

  /**
   * A date and a time of day to the minute.
   *
   * @param year {@code YEAR}; four digits set the century too
   * @param month {@code MONTH}, 0 for January
   * @param date {@code DAY_OF_MONTH}
   * @param hour {@code HOUR_OF_DAY}
   * @param minute {@code MINUTE}
   */
  public PartialTimestamp(int year, int month, int date, int hour, int minute) {
    this();
    set(YEAR, year);
    set(MONTH, month);
    set(DAY_OF_MONTH, date);
    set(HOUR_OF_DAY, hour);
    set(MINUTE, minute);
  }

  /**
   * A date and a time of day to the second.
   *
   * @param year {@code YEAR}; four digits set the century too
   * @param month {@code MONTH}, 0 for January
   * @param date {@code DAY_OF_MONTH}
   * @param hour {@code HOUR_OF_DAY}
   * @param minute {@code MINUTE}
   * @param second {@code SECOND}
   */
  public PartialTimestamp(int year, int month, int date, int hour, int minute, int second) {
    this(year, month, date, hour, minute);
    set(SECOND, second);
  }

  /**
   * A field's modifier.
   *
   * @param field the field
   * @return the number added to it after resolution
   */
  public int getModifier(int field) {
    return modifiers[field];
  }

  /**
   * Sets a field's modifier.
   *
   * @param field the field
   * @param value the number added to it after resolution
   */
  public void setModifier(int field, int value) {
    modifiers[field] = value;
  }

  /** Adds to a set field, carrying into the fields above it; to an unset field's modifier. */
  @Override
  public void add(int field, int amount) {
    if (!isSet[field]) {
      modifiers[field] += amount;
      return;
    }
    myInternalSet(field, fields[field] + amount);
    carry(field);
  }

  /** Nothing to compute: the fields are the partial time; {@link #computeTime} resolves them. */
  @Override
  protected void computeFields() {
    if (isTimeSet && !areFieldsSet) {
      ZonedDateTime at = ZonedDateTime.ofInstant(Instant.ofEpochMilli(time), getTimeZone().toZoneId());
      int[] values = {at.getYear() / 100, at.getYear() % 100, at.getMonthValue() - 1, at.getDayOfMonth(), at.getHour(), at.getMinute(),
          at.getSecond()};
      for (int i = 0; i < ORDER.length; i++) {
        myInternalSet(ORDER[i], values[i]);
      }
      // the offset in force then, daylight saving included: the fields and it name this instant,
      // and the DRMAA form writes it (Grid Engine's binding writes the zone's raw offset, an hour
      // off in summer)
      myInternalSet(ZONE_OFFSET, at.getOffset().getTotalSeconds() * 1000);
      Arrays.fill(modifiers, 0);
      areFieldsSet = true;
    }
  }

  /** Sets a field; a year of three or more digits sets the century too; an out-of-range value carries into the fields above. */
  @Override
  public void set(int field, int value) {
    int v = value + modifiers[field];
    modifiers[field] = 0;
    if (field == YEAR && v >= 100) {
      myInternalSet(CENTURY, v / 100);
      v %= 100;
    }
    myInternalSet(field, v);
    carry(field);
    if (field == MONTH || field == YEAR || field == CENTURY) {
      carry(DAY_OF_MONTH); // a day past its month's end, kept while the month was unknown, now moves on
    }
  }

  /** The field as set, or {@link #UNSET}; never resolved. */
  @Override
  public int get(int field) {
    return isSet[field] ? fields[field] : UNSET;
  }

  /** Resolves the partial time, as of now, into {@code time}. */
  @Override
  protected void computeTime() {
    time = new Resolution(this).soonestFrom(System.currentTimeMillis());
  }

  /** Resolved afresh at every call: the soonest matching time from now on, modifiers added. */
  @Override
  public long getTimeInMillis() {
    computeTime();
    return time;
  }

  @Override
  public int getGreatestMinimum(int field) {
    return getMinimum(field);
  }

  @Override
  public int getLeastMaximum(int field) {
    return field == DAY_OF_MONTH ? 28 : getMaximum(field);
  }

  @Override
  public int getMaximum(int field) {
    return switch (field) {
      case CENTURY -> LAST_CENTURY;
      case YEAR -> 99;
      case DAY_OF_MONTH -> 31;
      default -> GREGORIAN.getMaximum(field);
    };
  }

  @Override
  public int getMinimum(int field) {
    return switch (field) {
      case CENTURY, YEAR -> 0;
      default -> GREGORIAN.getMinimum(field);
    };
  }

  /** Rolls the field by one, up or down; see {@link #roll(int, int)}. */
  @Override
  public void roll(int field, boolean up) {
    roll(field, up ? 1 : -1);
  }

  /** Rolls a set field within its range, wrapping, touching no other field; an unset field stays unset. */
  @Override
  public void roll(int field, int amount) {
    if (!isSet[field]) {
      return;
    }
    int min = getActualMinimum(field);
    int span = getActualMaximum(field) - min + 1;
    myInternalSet(field, min + Math.floorMod(fields[field] - min + amount, span));
  }

  /**
   * Sets a field's value as it is: no carry, no modifier taken in; {@link #UNSET} unsets it.
   *
   * @param field the field
   * @param value its value
   */
  protected void myInternalSet(int field, int value) {
    if (value == UNSET) {
      clear(field);
    } else {
      super.set(field, value); // Calendar's own bookkeeping, so that isSet(field) answers true
    }
    isTimeSet = false;
  }

  @Override
  public int getActualMinimum(int field) {
    return getMinimum(field);
  }

  /** The field's maximum as far as the fields set tell: a day of month needs the month, and for February the year and century. */
  @Override
  public int getActualMaximum(int field) {
    if (field != DAY_OF_MONTH || !isSet[MONTH]) {
      return getMaximum(field);
    }
    int month = fields[MONTH];
    if (month == FEBRUARY && !(isSet[YEAR] && isSet[CENTURY])) {
      return 29;
    }
    int year = month == FEBRUARY ? fields[CENTURY] * 100 + fields[YEAR] : 2000;
    return YearMonth.of(year, month + 1).lengthOfMonth();
  }

  @Override
  public boolean equals(Object obj) {
    return obj instanceof PartialTimestamp other && other.getClass() == getClass() && Arrays.equals(values(), other.values())
        && Arrays.equals(modifiers, other.modifiers) && getTimeZone().equals(other.getTimeZone());
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(values()) + Arrays.hashCode(modifiers);
  }

  @Override
  public Object clone() {
    PartialTimestamp copy = (PartialTimestamp) super.clone();
    copy.modifiers = modifiers.clone();
    return copy;
  }

  /** The resolved fields, largest first: century, year, month, day, hour, minute, second. */
  static int[] order() {
    return ORDER.clone();
  }

  boolean isSetField(int field) {
    return isSet[field];
  }

  int field(int field) {
    return fields[field];
  }

  private int[] values() {
    int[] values = new int[FIELD_COUNT];
    for (int field = 0; field < FIELD_COUNT; field++) {
      values[field] = get(field);
    }
    return values;
  }

  /** Brings an out-of-range field into range, carrying into the next larger field (its modifier when unset). */
  private void carry(int field) {
    for (int i = indexOf(field); i > 0 && isSet[ORDER[i]]; i--) {
      int f = ORDER[i];
      if (f == DAY_OF_MONTH) {
        carryDay();
        return;
      }
      int min = getMinimum(f);
      int span = getMaximum(f) - min + 1;
      int over = Math.floorDiv(fields[f] - min, span);
      if (over == 0) {
        return;
      }
      myInternalSet(f, fields[f] - over * span);
      int up = ORDER[i - 1];
      if (!isSet[up]) {
        modifiers[up] += over;
        return;
      }
      myInternalSet(up, fields[up] + over);
    }
  }

  /**
   * Brings a day of a known month into it, a month at a time, each step by the length of the month
   * left or entered (February 29 days when the year is unknown); a day of an unknown month stays as
   * it is until the month is set.
   */
  private void carryDay() {
    while (isSet[MONTH] && (fields[DAY_OF_MONTH] < 1 || fields[DAY_OF_MONTH] > getActualMaximum(DAY_OF_MONTH))) {
      if (fields[DAY_OF_MONTH] < 1) {
        myInternalSet(MONTH, fields[MONTH] - 1);
        carry(MONTH);
        myInternalSet(DAY_OF_MONTH, fields[DAY_OF_MONTH] + getActualMaximum(DAY_OF_MONTH));
      } else {
        myInternalSet(DAY_OF_MONTH, fields[DAY_OF_MONTH] - getActualMaximum(DAY_OF_MONTH));
        myInternalSet(MONTH, fields[MONTH] + 1);
        carry(MONTH);
      }
    }
  }

  private static int indexOf(int field) {
    for (int i = 0; i < ORDER.length; i++) {
      if (ORDER[i] == field) {
        return i;
      }
    }
    return 0;
  }
}
