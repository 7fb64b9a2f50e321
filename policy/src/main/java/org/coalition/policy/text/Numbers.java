package org.coalition.policy.text;

import java.math.BigDecimal;
import java.math.MathContext;

/**
 * How a number reads in a message a person sees (decision log, policy and learning reasons): a
 * whole number exactly, anything else to six significant digits without an exponent or trailing
 * zeros ({@code 7200}, {@code 7200.5}, {@code 1234570}, {@code 0.000123457}). Tables that align
 * columns ({@code Output.number} in the CLI), chart labels that must stay short ({@code BarChart},
 * three significant digits) and messages that echo what a user wrote ({@code ConfigSection}, which
 * must not round) format on purpose otherwise.
 */
public final class Numbers {
  private static final MathContext SIGNIFICANT = new MathContext(6);

  private Numbers() {}

  /** {@code v} as a person should read it; NaN and infinities as Java writes them. */
  public static String format(double v) {
    if (Double.isNaN(v) || Double.isInfinite(v)) {
      return Double.toString(v);
    }
    if (v == Math.rint(v) && Math.abs(v) < 1e15) {
      return Long.toString((long) v);
    }
    return new BigDecimal(v).round(SIGNIFICANT).stripTrailingZeros().toPlainString();
  }
}
