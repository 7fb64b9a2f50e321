package org.coalition.policy.balancing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ExpectedDelayTest {
  @Test
  void valueByHand() {
    // lambda = 0.2, L = 0, Phi = 5: 5 + 5 (e^-1 - 1)
    assertEquals(5 + 5 * (Math.exp(-1) - 1), ExpectedDelay.of(5, 0, 0.2), 1e-12);
  }

  @Test
  void noForeignLoadCostsNothing() {
    assertEquals(0, ExpectedDelay.of(0, 7, 0.2), 1e-15);
  }

  @Test
  void costGrowsWithTheQueueTowardsTheForeignLoad() {
    double previous = -1;
    for (double queue = 0; queue <= 200; queue += 5) {
      double eg = ExpectedDelay.of(10, queue, 0.2);
      assertTrue(eg >= previous, "monotone in L");
      assertTrue(eg >= 0 && eg <= 10, "between 0 and Phi");
      previous = eg;
    }
    assertEquals(10, ExpectedDelay.of(10, 500, 0.2), 1e-9);
  }

  @Test
  void badArgumentsAreRefused() {
    assertThrows(IllegalArgumentException.class, () -> ExpectedDelay.of(1, 1, 0));
    assertThrows(IllegalArgumentException.class, () -> ExpectedDelay.of(-1, 1, 1));
  }
}
