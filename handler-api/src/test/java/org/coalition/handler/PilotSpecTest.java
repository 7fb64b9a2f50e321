package org.coalition.handler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A pilot's output file: discarded unless named, and a plain absolute path batch systems take as it is. */
class PilotSpecTest {
  private static PilotSpec pilot() {
    return new PilotSpec("coalition-pilot-1", "fed", 1, 100, 120, "", List.of("coalition", "pilot"), Map.of(), "/tmp", false);
  }

  @Test
  void aPilotsOutputIsDiscardedUnlessNamed() {
    assertEquals(PilotSpec.DISCARD, pilot().output());
    assertEquals("/var/log/pilots/p.out", pilot().withOutput("/var/log/pilots/p.out").output());
  }

  @Test
  void anOutputBatchSystemsWouldExpandOrThatLeavesItsFolderIsRefused() {
    for (String bad : List.of("p.out", "/var/log/%j.out", "/var/log/$JOB_ID", "/var/log/a b", "/var/../etc/p.out", "/var/log/..")) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> pilot().withOutput(bad), bad);
      assertTrue(e.getMessage().contains("output must be an absolute file path"), e.getMessage());
    }
  }
}
