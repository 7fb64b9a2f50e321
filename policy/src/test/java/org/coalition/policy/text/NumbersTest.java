package org.coalition.policy.text;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class NumbersTest {
  @Test
  void wholeNumbersExactlyTheRestToSixSignificantDigitsWithoutExponent() {
    assertEquals("7200", Numbers.format(7200.0));
    assertEquals("-4", Numbers.format(-4.0));
    assertEquals("0", Numbers.format(-0.0));
    assertEquals("7200.5", Numbers.format(7200.5));
    assertEquals("1234570", Numbers.format(1234567.8));
    assertEquals("0.000123457", Numbers.format(0.000123456789));
    assertEquals("-1201.14", Numbers.format(-1201.1439999999996));
    assertEquals("0.1", Numbers.format(0.1));
    assertEquals("1000000000000000", Numbers.format(1e15));
    assertEquals("NaN", Numbers.format(Double.NaN));
    assertEquals("-Infinity", Numbers.format(Double.NEGATIVE_INFINITY));
  }
}
