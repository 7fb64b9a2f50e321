package org.coalition.coordination.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import org.coalition.coordination.ContractNote;
import org.coalition.coordination.CoordinationException;
import org.coalition.coordination.Market;
import org.coalition.coordination.MarketDay;
import org.coalition.coordination.MutableClock;
import org.coalition.policy.contracts.Contract.Phase;
import org.coalition.policy.contracts.ContractTerms;
import org.coalition.policy.contracts.DayAheadMarket.Outcome;
import org.coalition.policy.contracts.MarketCalendar;
import org.coalition.policy.contracts.SealedBid;
import org.coalition.policy.contracts.SealedBid.Side;
import org.junit.jupiter.api.Test;

/**
 * The market's in-memory twin keeps ZooKeeper's rules by its clock (ZkMarketIT's day on a real
 * server, without the hostile member): b and d buy at 100 and 60, a and c sell at 10 and 80, so
 * McAfee pairs b with a at 70; a commitment after the gate, a reveal before it and a second note
 * of one phase are refused, and the day reads as closed only once its reveals have.
 */
class InMemoryMarketTest {
  private static final String TYPE = "batch.cpu8x1";
  private static final LocalDate DAY = LocalDate.of(2026, 12, 3);
  private static final String NONCE_A = "a".repeat(64);
  private static final String NONCE_B = "b".repeat(64);
  private static final String NONCE_C = "c".repeat(64);
  private static final String NONCE_D = "d".repeat(64);

  private final MutableClock clock = new MutableClock(MarketCalendar.start(DAY).minus(Duration.ofHours(13)));
  private final InMemoryFederation fed = new InMemoryFederation(clock);
  private final long slot = MarketCalendar.start(DAY).plus(Duration.ofHours(1)).getEpochSecond();

  private SealedBid bid(String site, Side side, long price) {
    return new SealedBid(site, slot, TYPE, side, price);
  }

  @Test
  void aDayClearsAsMcAfeeSaysOnceItsRevealsCloseAndRefusesWhatComesOutOfTime() {
    Map<String, Market> m = Map.of("a", fed.connect("a").market(), "b", fed.connect("b").market(), "c", fed.connect("c").market(),
        "d", fed.connect("d").market());
    m.get("a").commit(bid("a", Side.SELL, 10), NONCE_A);
    m.get("b").commit(bid("b", Side.BUY, 100), NONCE_B);
    m.get("c").commit(bid("c", Side.SELL, 80), NONCE_C);
    m.get("d").commit(bid("d", Side.BUY, 60), NONCE_D);
    assertThrows(CoordinationException.class, () -> m.get("a").reveal(bid("a", Side.SELL, 10), NONCE_A), "no reveal before the gate");
    m.get("a").commit(bid("a", Side.SELL, 10), NONCE_A); // the same again: no change, as a retried write
    assertThrows(CoordinationException.class, () -> m.get("a").commit(bid("a", Side.SELL, 11), NONCE_A), "one bid per slot and type");
    assertThrows(CoordinationException.class, () -> m.get("a").commit(bid("b", Side.BUY, 1), NONCE_A), "only its own bids");

    clock.advance(Duration.ofHours(1).plusMinutes(1)); // past the gate, 12 h before the day
    assertThrows(CoordinationException.class, () -> m.get("a").commit(new SealedBid("a", slot + 3600, TYPE, Side.SELL, 5), NONCE_A),
        "no commitment after the gate");
    assertThrows(CoordinationException.class, () -> m.get("c").reveal(bid("c", Side.SELL, 1), NONCE_C), "only the bid committed");
    m.forEach((site, market) -> market.reveal(bid(site, site.equals("a") || site.equals("c") ? Side.SELL : Side.BUY,
        Map.of("a", 10L, "b", 100L, "c", 80L, "d", 60L).get(site)), Map.of("a", NONCE_A, "b", NONCE_B, "c", NONCE_C, "d", NONCE_D).get(site)));
    assertFalse(m.get("a").read(DAY).closed(), "open until the reveals close");

    clock.advance(Duration.ofMinutes(30));
    MarketDay day = m.get("d").read(DAY);
    assertTrue(day.closed());
    assertEquals(1, day.outcomes().size(), "one auction: " + day.outcomes());
    Outcome o = day.outcomes().get(0);
    ContractTerms won = new ContractTerms("b", "a", slot, TYPE, 70, 70);
    assertEquals(List.of(won), o.contracts(), o.reason());
    assertEquals(List.of(), o.refused());

    m.get("b").publishClearing(DAY, day.outcomes());
    m.get("c").publishClearing(DAY, List.of());
    m.get("a").note(new ContractNote("a", won, Phase.ACKNOWLEDGED, ""));
    m.get("a").note(new ContractNote("a", won, Phase.OPEN, "coalition-b-1"));
    assertThrows(CoordinationException.class, () -> m.get("a").note(new ContractNote("a", won, Phase.OPEN, "other")), "a phase once");
    MarketDay after = m.get("b").read(DAY);
    assertEquals(List.of("b"), after.clearedBy(), "only the clearing of the bids that count");
    assertEquals(Phase.OPEN, after.notes().get(won.id()).get("a").phase(), "a party's furthest phase");
    assertEquals(day.outcomes(), after.outcomes(), "every member reads the same day");
  }
}
