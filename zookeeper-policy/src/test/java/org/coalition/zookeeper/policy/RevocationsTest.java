package org.coalition.zookeeper.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Which certificates a cutoff refuses, and when. */
class RevocationsTest {
  private static final long CUTOFF = 1_800_000_000_000L;

  @Test
  void noNodeRevokesNothing() {
    assertFalse(Revocations.revoked(null, 0, CUTOFF));
  }

  @Test
  void aCutoffRefusesOnlyCertificatesIssuedBeforeIt() {
    byte[] data = Revocations.encode(CUTOFF, 0);
    assertTrue(Revocations.revoked(data, CUTOFF - 1, CUTOFF));
    assertFalse(Revocations.revoked(data, CUTOFF, CUTOFF), "the certificate that set the cutoff");
    assertFalse(Revocations.revoked(data, CUTOFF + 1_000, CUTOFF));
  }

  @Test
  void anOverlapDelaysTheCutoff() {
    byte[] data = Revocations.encode(CUTOFF, CUTOFF + 3_600_000);
    assertFalse(Revocations.revoked(data, CUTOFF - 1, CUTOFF + 3_599_999), "within the overlap");
    assertTrue(Revocations.revoked(data, CUTOFF - 1, CUTOFF + 3_600_000));
  }

  @Test
  void aRemovedSiteHasNoCertificateTaken() {
    byte[] data = Revocations.encode(Revocations.ALWAYS, 0);
    assertTrue(Revocations.revoked(data, Long.MAX_VALUE - 1, 0));
    assertTrue(Revocations.revoked(data, Long.MIN_VALUE, 0));
  }

  /** The node is the operator's alone; if its data does not parse, the safe reading is "refused". */
  @Test
  void dataThatIsNoCutoffRefusesEverything() {
    for (String garbage : new String[] {"", "soon", "1 2 3", "-5", "12 -1", "9".repeat(80)}) {
      assertTrue(Revocations.revoked(garbage.getBytes(StandardCharsets.US_ASCII), CUTOFF * 2, CUTOFF), "'" + garbage + "'");
    }
  }

  @Test
  void encodingRoundTripsAndRefusesNegativeTimes() {
    assertEquals("5", new String(Revocations.encode(5, 0), StandardCharsets.US_ASCII));
    assertEquals("5 7", new String(Revocations.encode(5, 7), StandardCharsets.US_ASCII));
    assertThrows(IllegalArgumentException.class, () -> Revocations.encode(-1, 0));
    assertEquals("/coalition/prod/revoked/north", Revocations.path(new Identity("prod", "north")));
  }
}
