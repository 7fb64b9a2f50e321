package org.coalition.periodic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import org.coalition.coordination.Allowances;
import org.coalition.coordination.Claim;
import org.coalition.coordination.JobRef;
import org.coalition.coordination.JobSpec;
import org.coalition.coordination.MutableClock;
import org.coalition.coordination.RunResult;
import org.coalition.coordination.SiteInfo;
import org.coalition.coordination.SiteStatus;
import org.coalition.coordination.memory.InMemoryCoordination;
import org.coalition.coordination.memory.InMemoryFederation;
import org.junit.jupiter.api.Test;

/** The period's body, without Quartz, on the in-memory coordination. */
class BalancingPeriodTest {
  private final InMemoryFederation federation = new InMemoryFederation(new MutableClock(Instant.parse("2026-11-21T00:00:00Z")));

  private InMemoryCoordination site(String id, double queue, double level) {
    InMemoryCoordination c = federation.connect(id);
    c.join(new SiteInfo(id, "", 100), new SiteStatus(id, 100, queue, 1, 0.5, level));
    return c;
  }

  @Test
  void theLeaderPublishesBilbAllowancesOverLiveSites() {
    InMemoryCoordination a = site("a", 9000, 2000);
    InMemoryCoordination b = site("b", 1000, 2000);
    InMemoryCoordination c = site("c", 0, 500);
    BalancingPeriod.Outcome outcome = new BalancingPeriod(a).run();
    assertTrue(outcome.leader());
    Allowances published = outcome.published();
    // BILB by hand (DESIGN.md, "BILB"): sorted by queue, c (0, l 500), b (1000, l 2000), a (9000, l 2000).
    // b: mean (0 + 1000) / 2 = 500, may send min(1000 - 500, 2000) = 500; c's room min(500 - 0, 500 - 0) = 500: b -> c 500.
    // a: mean (0 + 1000 + 9000) / 3 = 3333.3, may send min(9000 - 3333.3, 2000) = 2000; rooms: c min(3333.3 - 500, 500 - 500) = 0,
    //    b (now at 1000 - 500 = 500) min(3333.3 - 500, 2000 - 500) = 1500; smallest room first: c 0, then b min(1500, 2000) = 1500.
    assertEquals(1500, published.of("a").send(), 1e-9, "a sends");
    assertEquals(0, published.of("a").receive(), 1e-9, "a receives");
    assertEquals(500, published.of("b").send(), 1e-9, "b sends");
    assertEquals(1500, published.of("b").receive(), 1e-9, "b receives");
    assertEquals(0, published.of("c").send(), 1e-9, "c sends");
    assertEquals(500, published.of("c").receive(), 1e-9, "c receives");
    assertTrue(published.of("a").send() > 0 && published.of("c").receive() <= 500);
    assertEquals(published, b.allowances(), "everyone reads the leader's allowances");
    assertEquals(1, published.period());
    BalancingPeriod same = new BalancingPeriod(a);
    same.run();
    assertEquals(2, same.run().published().period(), "periods are numbered");
    c.close();
  }

  @Test
  void aFollowerOnlySweeps() {
    InMemoryCoordination a = site("a", 0, 10);
    InMemoryCoordination b = site("b", 0, 10);
    a.publish(JobSpec.builder("j", "a").cores(1).walltimeSeconds(60).build());
    Claim claim = b.claim(new JobRef("a", "j")).orElseThrow();
    b.start(claim, 1);
    b.finish(claim, RunResult.builder(1, 2).build());
    BalancingPeriod.Outcome outcome = new BalancingPeriod(b).run();
    assertFalse(outcome.leader());
    assertNull(outcome.published());
    assertEquals(0, outcome.requeued());
    assertEquals(0, b.ledgers().get("b").jobsExecuted(), "the executor is credited when the home accepts, not by a period");
  }
}
