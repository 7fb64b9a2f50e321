package org.coalition.gridengine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.coalition.handler.HandlerException;
import org.coalition.testbed.fuzz.Mutations;

/**
 * Fuzzing the reader of {@code qstat -xml} (docs/security.md): Grid Engine 8.1.9's own output,
 * edited at random, is read into counts that make sense or refused as a PROTOCOL error; nothing
 * else escapes, so a broken {@code qstat} skips a round and never stops the daemon.
 */
class QstatXmlFuzzTest {

  @Property(tries = 10_000)
  void anEditedSummaryIsCountedSensiblyOrRefused(@ForAll("summaries") String xml) {
    try {
      QstatXml.Slots s = QstatXml.slots(xml, List.of());
      assertTrue(s.used() >= 0 && s.used() <= s.usable(), "used " + s.used() + " of " + s.usable());
    } catch (HandlerException e) {
      assertEquals(HandlerException.Category.PROTOCOL, e.category(), e.getMessage());
    }
  }

  @Property(tries = 10_000)
  void anEditedPendingListIsCountedSensiblyOrRefused(@ForAll("pendings") String xml) {
    try {
      QstatXml.Pending p = QstatXml.pending(xml, Duration.ofMinutes(30), "all.q");
      assertTrue(p.jobs() >= 0 && Double.isFinite(p.coreSeconds()) && p.coreSeconds() >= 0, p.toString());
    } catch (HandlerException e) {
      assertEquals(HandlerException.Category.PROTOCOL, e.category(), e.getMessage());
    }
  }

  @Provide
  Arbitrary<String> summaries() {
    return Mutations.of(3, QstatXmlTest.SUMMARY);
  }

  @Provide
  Arbitrary<String> pendings() {
    return Mutations.of(3, QstatXmlTest.PENDING);
  }
}
