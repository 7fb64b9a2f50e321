package org.coalition.testbed.fuzz;

import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/**
 * Inputs for the fuzzers (jqwik properties): real inputs (a site file, trace lines, a record as
 * ZooKeeper stores it, qstat's XML) edited a few times at random: characters inserted, deleted,
 * doubled or replaced, numbers made extreme, lines swapped. Mostly almost-valid inputs, which
 * reach deeper into a reader than random bytes do; jqwik shrinks a failing one to its smallest
 * edit.
 */
public final class Mutations {
  /** What is written in: the characters readers split on, quote with or choke on, and some that are not ASCII. */
  private static final String ALPHABET = " \t\n\r:,;{}[]<>\"'\\/-#&=.0123456789eE+aZ_\u0000\u00e9\u2028\ufffd";
  private static final List<String> EXTREMES = List.of("-1", "0", "1e400", "-1e400", "NaN", "Infinity", "1e308", "99999999999999999999999",
      "-9223372036854775808", "2147483648", "0.0000001", "", "null", "true", "[]", "{}");

  private Mutations() {}

  /** {@code seeds} with one to {@code maxEdits} random edits each. */
  public static Arbitrary<String> of(int maxEdits, String... seeds) {
    Arbitrary<String> seed = Arbitraries.of(seeds);
    Arbitrary<List<Edit>> edits = edit().list().ofMinSize(1).ofMaxSize(maxEdits);
    return Combinators.combine(seed, edits).as((s, es) -> {
      String out = s;
      for (Edit e : es) {
        out = e.apply(out);
      }
      return out;
    });
  }

  /** One edit at a relative position (0..1) of the text. */
  private record Edit(int kind, double at, double length, String text) {
    String apply(String s) {
      if (s.isEmpty()) {
        return text;
      }
      int i = (int) (at * s.length());
      int j = Math.min(s.length(), i + 1 + (int) (length * Math.min(32, s.length() - i)));
      return switch (kind) {
        case 0 -> s.substring(0, i) + text + s.substring(i); // insert
        case 1 -> s.substring(0, i) + s.substring(j); // delete
        case 2 -> s.substring(0, j) + s.substring(i, j) + s.substring(j); // double
        case 3 -> s.substring(0, i) + text + s.substring(j); // replace
        default -> replaceNumber(s, i, text); // a number made extreme
      };
    }

    private static String replaceNumber(String s, int from, String extreme) {
      for (int k = from; k < s.length() + from; k++) {
        int p = k % s.length();
        if (Character.isDigit(s.charAt(p))) {
          int a = p;
          int b = p;
          while (a > 0 && (Character.isDigit(s.charAt(a - 1)) || s.charAt(a - 1) == '.')) {
            a--;
          }
          while (b < s.length() && (Character.isDigit(s.charAt(b)) || s.charAt(b) == '.')) {
            b++;
          }
          return s.substring(0, a) + extreme + s.substring(b);
        }
      }
      return s + extreme;
    }
  }

  private static Arbitrary<Edit> edit() {
    Arbitrary<String> text = Arbitraries.oneOf(Arbitraries.strings().withChars(ALPHABET).ofMinLength(1).ofMaxLength(8),
        Arbitraries.of(EXTREMES));
    return Combinators.combine(Arbitraries.integers().between(0, 4), Arbitraries.doubles().between(0, 1), Arbitraries.doubles().between(0, 1),
        text).as(Edit::new);
  }
}
