package org.coalition.policy.balancing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class ParticipationLearningTest {
  private final ParticipationLearning learning = new ParticipationLearning(0.5);

  @Test
  void aFederationThatHelpsRaisesTheLevel() {
    // F = 50, F~ = 100: R = 0.5 <= 1, delta = +1, R inverted to 2: l = 10 + 0.5 * 10 * 1 = 15.
    ParticipationLearning.Adjustment a = learning.next(10, 50, 100);
    assertEquals(15, a.level(), 1e-12);
    assertEquals(+1, a.delta());
  }

  @Test
  void aFederationThatHurtsLowersTheLevel() {
    // F = 150, F~ = 100: R = 1.5, delta = -1: l = 10 - 0.5 * 10 * 0.5 = 7.5.
    assertEquals(7.5, learning.next(10, 150, 100).level(), 1e-12);
  }

  @Test
  void theRatioIsBoundedToHalfAndTwo() {
    assertEquals(5, learning.next(10, 1000, 1).level(), 1e-12, "R capped at 2: l - 0.5 l");
    assertEquals(15, learning.next(10, 1, 1000).level(), 1e-12, "R floored at 1/2: l + 0.5 l");
    assertEquals(2.0, learning.next(10, 1000, 1).ratio(), 1e-12);
  }

  @Test
  void noChangeWithoutEvidenceOrWhenEqual() {
    assertEquals(10, learning.next(10, 0, 100).level(), 1e-12);
    assertEquals(10, learning.next(10, 100, 100).level(), 1e-12);
  }

  @Test
  void theLevelNeverGoesNegative() {
    ParticipationLearning fastest = new ParticipationLearning(1.0);
    assertEquals(0, fastest.next(10, 200, 100).level(), 1e-12);
  }

  @Test
  void badArgumentsAreRefused() {
    assertThrows(IllegalArgumentException.class, () -> new ParticipationLearning(0));
    assertThrows(IllegalArgumentException.class, () -> new ParticipationLearning(1.5));
    assertThrows(IllegalArgumentException.class, () -> learning.next(-1, 1, 1));
  }
}
