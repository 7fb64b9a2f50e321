package org.coalition.simulator.contracts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class CoreProfileTest {
  @Test
  void aJobStartsWhereItsCoresAreFreeForItsWholeRun() {
    CoreProfile p = new CoreProfile(8);
    p.add(100, 200, -4); // a block sold for [100, 200)
    assertEquals(0, p.earliestStart(0, 8, 100), "ends exactly when the block leaves");
    assertEquals(200, p.earliestStart(0, 8, 101), "would overlap the sold block: after it");
    assertEquals(0, p.earliestStart(0, 4, 1000), "four cores stay free throughout");
    p.add(0, 300, -4);
    assertEquals(200, p.earliestStart(100, 1, 10), "nothing free in [100, 200)");
    assertEquals(4, p.freeAt(250));
    p.add(400, 500, 4); // a block bought for [400, 500)
    assertEquals(12, p.freeAt(450));
    assertEquals(400, p.earliestStart(350, 10, 100));
    assertThrows(IllegalStateException.class, () -> p.earliestStart(350, 10, 101), "the bought cores leave at 500: a longer job never fits");
  }

  @Test
  void forgettingThePastKeepsThePresent() {
    CoreProfile p = new CoreProfile(8);
    p.add(10, 20, -3);
    p.add(30, 40, -5);
    p.forgetBefore(35);
    assertEquals(3, p.freeAt(35));
    assertEquals(3, p.freeAt(0), "before 35 reads as at 35 now");
    assertEquals(8, p.freeAt(40));
    assertEquals(40, p.earliestStart(35, 8, 5));
  }
}
