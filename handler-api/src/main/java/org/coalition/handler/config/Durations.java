package org.coalition.handler.config;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations as Coalition writes them everywhere, in the site file and on the command line: a whole
 * number and one unit of {@code ms}, {@code s}, {@code m}, {@code h}, {@code d} ({@code 500ms},
 * {@code 30s}, {@code 10m}, {@code 2h}, {@code 1d}). One syntax, one parser, one printer.
 */
public final class Durations {
  private static final Pattern DURATION = Pattern.compile("([0-9]{1,12})(ms|s|m|h|d)");
  private static final long[] UNITS = {86_400_000, 3_600_000, 60_000, 1_000};
  private static final String[] NAMES = {"d", "h", "m", "s"};
  /** What a wrong one is told, after "must be ". */
  public static final String EXPECTED = "a duration such as 500ms, 30s, 10m, 2h or 1d";

  private Durations() {}

  /**
   * Parses {@code text} (surrounding blanks ignored).
   *
   * @throws IllegalArgumentException naming {@code text} and the syntax when it is not a duration
   */
  public static Duration parse(String text) {
    Matcher m = DURATION.matcher(text == null ? "" : text.trim());
    if (!m.matches()) {
      throw new IllegalArgumentException("must be " + EXPECTED + ", was '" + text + "'");
    }
    long n = Long.parseLong(m.group(1));
    return switch (m.group(2)) {
      case "ms" -> Duration.ofMillis(n);
      case "s" -> Duration.ofSeconds(n);
      case "m" -> Duration.ofMinutes(n);
      case "h" -> Duration.ofHours(n);
      default -> Duration.ofDays(n);
    };
  }

  /** {@code d} in the same syntax: the largest unit that writes it whole ({@code 90s} is {@code 90s}, {@code 120s} is {@code 2m}). */
  public static String format(Duration d) {
    long ms = d.toMillis();
    for (int i = 0; i < UNITS.length; i++) {
      if (ms != 0 && ms % UNITS[i] == 0) {
        return ms / UNITS[i] + NAMES[i];
      }
    }
    return ms + "ms";
  }
}
