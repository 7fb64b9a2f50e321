package org.ggf.drmaa;

import java.text.FieldPosition;
import java.text.Format;
import java.text.ParseException;
import java.text.ParsePosition;
import java.util.Calendar;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Writes and reads a {@link PartialTimestamp} in the DRMAA timestamp form,
 * {@code [[[[CC]YY/]MM/]DD] hh:mm[:ss] [{-|+}UU:uu]}: every part two digits, the month counted
 * from 1, the optional zone offset in hours and minutes. Examples: {@code 10:30},
 * {@code 01 11:30}, {@code 2026/11/25 10:00:00 +01:00}. The offset is at most 18 hours either way,
 * and a day must exist in its month when the month is given.
 *
 * <p>A date part is written only whole to the right: a year needs the month and the day, a month
 * the day; hour and minute are always there. A timestamp this form cannot hold (a year without a
 * day, no hour) is refused with an {@link IllegalArgumentException} saying which field is in the
 * way. Modifiers are not written: the form has no place for them, and the standard's reference
 * binding (Grid Engine's) writes the fields and leaves them out too. A back end that passes a
 * timestamp with modifiers on resolves it first ({@link PartialTimestamp#getTimeInMillis()}), so
 * "the day after" is not lost.
 */
public class PartialTimestampFormat extends Format {
  private static final long serialVersionUID = 1L;
  private static final Pattern FORM = Pattern.compile(
      "(?:(?:(?:(\\d{2})?(\\d{2})/)?(\\d{2})/)?(\\d{2}) )?(\\d{2}):(\\d{2})(?::(\\d{2}))?(?: ([+-])(\\d{2}):(\\d{2}))?");
  private static final String[] NAMES = {"century", "year", "month", "day", "hour", "minute", "second"};
  private static final int[] FIELDS = {PartialTimestamp.CENTURY, Calendar.YEAR, Calendar.MONTH, Calendar.DAY_OF_MONTH, Calendar.HOUR_OF_DAY,
      Calendar.MINUTE, Calendar.SECOND};

  /** A format. */
  public PartialTimestampFormat() {
  }

  @Override
  public Object clone() {
    return super.clone();
  }

  /**
   * Writes a {@link PartialTimestamp}.
   *
   * @param obj the timestamp
   * @param toAppendTo where to write it
   * @param pos ignored
   * @return {@code toAppendTo}
   * @throws IllegalArgumentException when {@code obj} is not a {@code PartialTimestamp}, or the form cannot hold its fields
   */
  @Override
  public StringBuffer format(Object obj, StringBuffer toAppendTo, FieldPosition pos) {
    if (!(obj instanceof PartialTimestamp timestamp)) {
      throw new IllegalArgumentException("a PartialTimestampFormat writes PartialTimestamps, not " + (obj == null ? "null" : obj.getClass().getName()));
    }
    return format(timestamp, toAppendTo, pos);
  }

  /**
   * Writes a timestamp.
   *
   * @param obj the timestamp
   * @param toAppendTo where to write it
   * @param pos ignored
   * @return {@code toAppendTo}
   * @throws IllegalArgumentException when the form cannot hold it
   */
  public StringBuffer format(PartialTimestamp obj, StringBuffer toAppendTo, FieldPosition pos) {
    for (int i = 0; i < 3; i++) {
      if (obj.isSet(FIELDS[i]) && !obj.isSet(FIELDS[i + 1])) {
        throw new IllegalArgumentException("a DRMAA timestamp cannot hold a " + NAMES[i] + " without a " + NAMES[i + 1]);
      }
    }
    if (!obj.isSet(Calendar.HOUR_OF_DAY) || !obj.isSet(Calendar.MINUTE)) {
      throw new IllegalArgumentException("a DRMAA timestamp needs the hour and the minute");
    }
    StringBuilder out = new StringBuilder();
    if (obj.isSet(PartialTimestamp.CENTURY)) {
      out.append(two(obj.get(PartialTimestamp.CENTURY)));
    }
    if (obj.isSet(Calendar.YEAR)) {
      out.append(two(obj.get(Calendar.YEAR))).append('/');
    }
    if (obj.isSet(Calendar.MONTH)) {
      out.append(two(obj.get(Calendar.MONTH) + 1)).append('/');
    }
    if (obj.isSet(Calendar.DAY_OF_MONTH)) {
      out.append(two(obj.get(Calendar.DAY_OF_MONTH))).append(' ');
    }
    out.append(two(obj.get(Calendar.HOUR_OF_DAY))).append(':').append(two(obj.get(Calendar.MINUTE)));
    if (obj.isSet(Calendar.SECOND)) {
      out.append(':').append(two(obj.get(Calendar.SECOND)));
    }
    if (obj.isSet(Calendar.ZONE_OFFSET)) {
      int minutes = obj.get(Calendar.ZONE_OFFSET) / 60_000;
      out.append(minutes < 0 ? " -" : " +").append(two(Math.abs(minutes) / 60)).append(':').append(two(Math.abs(minutes) % 60));
    }
    return toAppendTo.append(out);
  }

  /**
   * Writes a timestamp.
   *
   * @param obj the timestamp
   * @return its text
   * @throws IllegalArgumentException when the form cannot hold it
   */
  public String format(PartialTimestamp obj) {
    return format(obj, new StringBuffer(), new FieldPosition(0)).toString();
  }

  /**
   * Reads a whole text as a timestamp.
   *
   * @param source the text
   * @return the timestamp, with the fields the text gives set and the others unset
   * @throws ParseException when the text is not in the form, or a part is out of range; its
   *     offset is where
   */
  public PartialTimestamp parse(String source) throws ParseException {
    ParsePosition pos = new ParsePosition(0);
    PartialTimestamp timestamp = parse(source, pos);
    if (timestamp == null) {
      throw new ParseException("not a DRMAA timestamp ([[[[CC]YY/]MM/]DD] hh:mm[:ss] [{-|+}UU:uu]) at offset " + pos.getErrorIndex()
          + ": " + source, pos.getErrorIndex());
    }
    if (pos.getIndex() != source.length()) {
      throw new ParseException("a DRMAA timestamp ends at offset " + pos.getIndex() + ", then comes: " + source.substring(pos.getIndex()),
          pos.getIndex());
    }
    return timestamp;
  }

  /**
   * Reads a timestamp from a position of a text on.
   *
   * @param source the text
   * @param pos where to start; moved past the timestamp, or its error index set when none is there
   * @return the timestamp, or {@code null} when none is there
   */
  public PartialTimestamp parse(String source, ParsePosition pos) {
    Matcher m = FORM.matcher(source).region(pos.getIndex(), source.length());
    if (!m.lookingAt()) {
      pos.setErrorIndex(pos.getIndex());
      return null;
    }
    int[] low = {0, 0, 1, 1, 0, 0, 0};
    int[] high = {99, 99, 12, 31, 23, 59, 59};
    PartialTimestamp t = new PartialTimestamp();
    for (int i = 0; i < FIELDS.length; i++) {
      String part = m.group(i + 1);
      if (part == null) {
        continue;
      }
      int v = Integer.parseInt(part);
      if (v < low[i] || v > high[i]) {
        pos.setErrorIndex(m.start(i + 1));
        return null;
      }
      t.myInternalSet(FIELDS[i], FIELDS[i] == Calendar.MONTH ? v - 1 : v);
    }
    if (t.isSet(Calendar.MONTH) && t.get(Calendar.DAY_OF_MONTH) > t.getActualMaximum(Calendar.DAY_OF_MONTH)) {
      pos.setErrorIndex(m.start(4)); // a day past its month's end (February's 29th needs a leap year when the year is given)
      return null;
    }
    if (m.group(8) != null) {
      int hours = Integer.parseInt(m.group(9));
      int minutes = Integer.parseInt(m.group(10));
      if (hours > 18 || minutes > 59 || hours == 18 && minutes > 0) {
        pos.setErrorIndex(m.start(9));
        return null;
      }
      t.myInternalSet(Calendar.ZONE_OFFSET, ("-".equals(m.group(8)) ? -1 : 1) * (hours * 60 + minutes) * 60_000);
    }
    pos.setIndex(m.end());
    return t;
  }

  @Override
  public Object parseObject(String source, ParsePosition pos) {
    return parse(source, pos);
  }

  private static String two(int value) {
    return value < 10 ? "0" + value : Integer.toString(value);
  }
}
