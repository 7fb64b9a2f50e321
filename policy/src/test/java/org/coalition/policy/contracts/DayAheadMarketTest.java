package org.coalition.policy.contracts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.coalition.policy.balancing.ExpectedDelay;
import org.coalition.policy.contracts.Commitment.Reveal;
import org.coalition.policy.contracts.DayAheadMarket.Fault;
import org.coalition.policy.contracts.DayAheadMarket.Outcome;
import org.coalition.policy.contracts.DayAheadMarket.Refusal;
import org.coalition.policy.contracts.SealedBid.Side;
import org.junit.jupiter.api.Test;

class DayAheadMarketTest {
  private static final long SLOT = 1_796_428_800L; // 2026-12-03 00:00 UTC
  private static final String TYPE = "batch.cpu16x2";
  /** One-hour slots: a block of TYPE is worth at most 32 x 3,600 = 115,200 core-seconds. */
  private static final long HOUR = 3600;
  private final Random random = new Random(53);
  private final Map<String, String> commitments = new HashMap<>();
  private final List<Reveal> reveals = new ArrayList<>();

  private String nonce() {
    byte[] bytes = new byte[Commitment.NONCE_BYTES];
    random.nextBytes(bytes);
    return HexFormat.of().formatHex(bytes);
  }

  /** A site commits before the gate and reveals after it, honestly. */
  private void bid(String site, Side side, long price) {
    SealedBid bid = new SealedBid(site, SLOT, TYPE, side, price);
    String nonce = nonce();
    commitments.put(site, Commitment.of(bid, nonce));
    reveals.add(new Reveal(bid, nonce));
  }

  private Outcome clear() {
    return DayAheadMarket.clear(SLOT, TYPE, HOUR, commitments, reveals);
  }

  @Test
  void aRevealMatchesOnlyTheBidItsCommitmentSealed() {
    SealedBid bid = new SealedBid("north", SLOT, TYPE, Side.BUY, 5000);
    String nonce = nonce();
    String commitment = Commitment.of(bid, nonce);
    assertTrue(Commitment.isHex64(commitment));
    assertTrue(new Reveal(bid, nonce).matches(commitment));
    assertFalse(new Reveal(new SealedBid("north", SLOT, TYPE, Side.BUY, 5001), nonce).matches(commitment), "another price");
    assertFalse(new Reveal(new SealedBid("north", SLOT, TYPE, Side.SELL, 5000), nonce).matches(commitment), "the other side");
    assertFalse(new Reveal(new SealedBid("north", SLOT + 3600, TYPE, Side.BUY, 5000), nonce).matches(commitment), "another slot");
    assertFalse(new Reveal(bid, nonce()).matches(commitment), "another nonce");
    assertFalse(new Reveal(bid, nonce).matches("not a commitment"));
  }

  @Test
  void aShortOrMalformedNonceAndABadBidAreRefusedByName() {
    SealedBid bid = new SealedBid("north", SLOT, TYPE, Side.BUY, 5000);
    IllegalArgumentException shortNonce = assertThrows(IllegalArgumentException.class, () -> Commitment.of(bid, "00ff"));
    assertEquals("nonce of north's bid must be 32 bytes as 64 lower-case hex digits", shortNonce.getMessage());
    assertThrows(IllegalArgumentException.class, () -> new Reveal(bid, "G".repeat(64)));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> new SealedBid("north", SLOT, TYPE, Side.BUY, -1))
        .getMessage().startsWith("bid of north: price must be between 0 and "));
    assertThrows(IllegalArgumentException.class, () -> new SealedBid("North/../x", SLOT, TYPE, Side.BUY, 1));
    assertThrows(IllegalArgumentException.class, () -> new SealedBid("north", SLOT, "a/b", Side.BUY, 1));
  }

  /** Buys 9000, 7000, 2000; sells 1000, 3000, 8000. */
  private void sixSites() {
    bid("north", Side.BUY, 7000);
    bid("east", Side.BUY, 9000);
    bid("west", Side.BUY, 2000);
    bid("south", Side.SELL, 3000);
    bid("central", Side.SELL, 1000);
    bid("far", Side.SELL, 8000);
  }

  @Test
  void winnersArePairedRankByRankAtMcAfeesPrices() {
    // Buys 9000, 7000, 2000; sells 1000, 3000, 8000: k = 2, p0 = (2000 + 8000) / 2 = 5000 in [3000, 7000].
    sixSites();
    Outcome outcome = clear();
    assertEquals(List.of(new ContractTerms("east", "central", SLOT, TYPE, 5000, 5000),
        new ContractTerms("north", "south", SLOT, TYPE, 5000, 5000)), outcome.contracts());
    assertEquals(List.of(), outcome.refused());
    assertEquals(SLOT + "-" + TYPE + "-central-east", outcome.contracts().get(0).id());
  }

  @Test
  void aMemberThatRevealsADifferentBidIsRefusedAndTheRestClearsAsWithoutIt() {
    bid("north", Side.BUY, 7000);
    bid("south", Side.SELL, 3000);
    bid("central", Side.SELL, 1000);
    Outcome honest = clear();
    // East commits to 2000, sees the others' reveals, then reveals 9000 with the same nonce.
    SealedBid committed = new SealedBid("east", SLOT, TYPE, Side.BUY, 2000);
    String nonce = nonce();
    commitments.put("east", Commitment.of(committed, nonce));
    reveals.add(new Reveal(new SealedBid("east", SLOT, TYPE, Side.BUY, 9000), nonce));
    Outcome outcome = clear();
    assertEquals(List.of(new Refusal("east", Fault.WRONG_REVEAL)), outcome.refused());
    assertEquals(honest.contracts(), outcome.contracts());
  }

  @Test
  void unrevealedUncommittedTwoSidedAndMisplacedBidsAreRefusedEachOnce() {
    bid("north", Side.BUY, 7000);
    bid("south", Side.SELL, 3000);
    SealedBid hidden = new SealedBid("quiet", SLOT, TYPE, Side.SELL, 10);
    commitments.put("quiet", Commitment.of(hidden, nonce()));
    String n1 = nonce();
    reveals.add(new Reveal(new SealedBid("late", SLOT, TYPE, Side.SELL, 10), n1));
    SealedBid buy = new SealedBid("both", SLOT, TYPE, Side.BUY, 9000);
    String n2 = nonce();
    commitments.put("both", Commitment.of(buy, n2));
    reveals.add(new Reveal(buy, n2));
    reveals.add(new Reveal(new SealedBid("both", SLOT, TYPE, Side.SELL, 1), n2));
    SealedBid elsewhere = new SealedBid("other", SLOT + 3600, TYPE, Side.SELL, 1);
    String n3 = nonce();
    commitments.put("other", Commitment.of(elsewhere, n3));
    reveals.add(new Reveal(elsewhere, n3));
    Outcome outcome = clear();
    assertEquals(List.of(new Refusal("both", Fault.BOTH_SIDES), new Refusal("late", Fault.NOT_COMMITTED),
        new Refusal("other", Fault.OTHER_AUCTION), new Refusal("quiet", Fault.NEVER_REVEALED)), outcome.refused());
    assertEquals(List.of(), outcome.contracts(), "one buyer and one seller whose prices do not straddle half the block's value: no trade");
  }

  @Test
  void aLoneBuyerAndSellerTradeAtHalfTheBlocksValueWhenItLiesBetweenTheirPrices() {
    bid("north", Side.BUY, 80_000);
    bid("south", Side.SELL, 3_000);
    assertEquals(List.of(new ContractTerms("north", "south", SLOT, TYPE, 57_600, 57_600)), clear().contracts(),
        "the missing next pair is the bounds of the value, a buy at 0 and a sell at 115,200: p0 = 57,600");
    commitments.clear();
    reveals.clear();
    bid("north", Side.BUY, 50_000);
    bid("south", Side.SELL, 3_000);
    assertEquals(List.of(), clear().contracts(), "a buyer that values the block below half its core-seconds does not trade alone");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new SealedBid("north", SLOT, "block", Side.BUY, 1));
    assertTrue(e.getMessage().contains("PARTITION.cpuCxN"), "a block type says its cores: " + e.getMessage());
  }

  @Test
  void equalPricesAreNotWonByTheSameSiteEverySlot() {
    // Three buyers at one price, three sellers: McAfee trades two pairs; which buyer is left out
    // must change from slot to slot (with ties by id, "a" would win every hour).
    Set<String> leftOut = new TreeSet<>();
    for (int hour = 0; hour < 24; hour++) {
      long slot = SLOT + hour * 3600L;
      Map<String, String> sealed = new HashMap<>();
      List<Reveal> open = new ArrayList<>();
      for (String site : List.of("a", "b", "c", "x", "y", "z")) {
        SealedBid bid = new SealedBid(site, slot, TYPE, site.compareTo("x") < 0 ? Side.BUY : Side.SELL, site.compareTo("x") < 0 ? 5000 : 1000);
        String nonce = nonce();
        sealed.put(site, Commitment.of(bid, nonce));
        open.add(new Reveal(bid, nonce));
      }
      List<String> buyers = DayAheadMarket.clear(slot, TYPE, HOUR, sealed, open).contracts().stream().map(ContractTerms::buyer).toList();
      assertEquals(2, buyers.size());
      leftOut.addAll(List.of("a", "b", "c").stream().filter(b -> !buyers.contains(b)).toList());
    }
    assertEquals(Set.of("a", "b", "c"), leftOut, "every buyer is left out in some hour");
  }

  @Test
  void everyMemberRecomputesTheClearingAndFindsAWrongOne() {
    sixSites();
    List<ContractTerms> right = clear().contracts();
    assertEquals(List.of(), DayAheadMarket.verify(right, SLOT, TYPE, HOUR, commitments, reveals));
    List<ContractTerms> dearer = List.of(new ContractTerms("east", "central", SLOT, TYPE, 6000, 6000), right.get(1));
    List<ContractTerms> swapped = List.of(new ContractTerms("east", "south", SLOT, TYPE, 5000, 5000),
        new ContractTerms("north", "central", SLOT, TYPE, 5000, 5000));
    List<ContractTerms> extra = new ArrayList<>(right);
    extra.add(new ContractTerms("west", "far", SLOT, TYPE, 5000, 5000));
    assertEquals(2, DayAheadMarket.verify(dearer, SLOT, TYPE, HOUR, commitments, reveals).size());
    assertEquals(4, DayAheadMarket.verify(swapped, SLOT, TYPE, HOUR, commitments, reveals).size());
    assertEquals(List.of("contract " + SLOT + "-" + TYPE + "-far-west at 5000.0/5000.0 is not in the clearing"),
        DayAheadMarket.verify(extra, SLOT, TYPE, HOUR, commitments, reveals));
    assertEquals(List.of("contract " + SLOT + "-" + TYPE + "-south-north at 5000.0/5000.0 of the clearing is missing"),
        DayAheadMarket.verify(right.subList(0, 1), SLOT, TYPE, HOUR, commitments, reveals));
  }

  @Test
  void theClearingDoesNotDependOnTheOrderMembersReadTheTreeIn() {
    for (int market = 0; market < 200; market++) {
      commitments.clear();
      reveals.clear();
      int sites = 2 + random.nextInt(20);
      for (int s = 0; s < sites; s++) {
        bid("s" + s, random.nextBoolean() ? Side.BUY : Side.SELL, random.nextInt(5) * 1000L);
      }
      Outcome first = clear();
      Collections.shuffle(reveals, random);
      Outcome again = DayAheadMarket.clear(SLOT, TYPE, HOUR, new HashMap<>(commitments), reveals);
      assertEquals(first, again, "market " + market);
    }
  }

  /**
   * How much a misreported bid gains under this settlement (the what-if, first in the
   * rules alone): in 300 random single-block markets, no buyer or seller of any value gains by
   * bidding any other whole price than its value, since McAfee's prices never depend on the
   * winner's own bid.
   */
  @Test
  void noSiteGainsByBiddingOtherThanItsValue() {
    for (int market = 0; market < 300; market++) {
      int sites = 2 + random.nextInt(8);
      long[] values = new long[sites];
      Side[] sides = new Side[sites];
      for (int s = 0; s < sites; s++) {
        values[s] = 1 + random.nextInt(20);
        sides[s] = random.nextBoolean() ? Side.BUY : Side.SELL;
      }
      for (int liar = 0; liar < sites; liar++) {
        double truthful = utility(values, sides, liar, values[liar]);
        for (long lie = 0; lie <= 21; lie++) {
          double gained = utility(values, sides, liar, lie) - truthful;
          assertTrue(gained <= 1e-9, "market " + market + ": site " + liar + " gained " + gained + " by bidding " + lie
              + " for a value of " + values[liar]);
        }
      }
    }
  }

  /** Site {@code who}'s gain (value less price paid, or price received less value) when it bids {@code price}. */
  private double utility(long[] values, Side[] sides, int who, long price) {
    commitments.clear();
    reveals.clear();
    for (int s = 0; s < values.length; s++) {
      bid("s" + s, sides[s], s == who ? price : values[s]);
    }
    String site = "s" + who;
    for (ContractTerms c : clear().contracts()) {
      if (c.buyer().equals(site)) {
        return values[who] - c.buyPrice();
      }
      if (c.seller().equals(site)) {
        return c.sellPrice() - values[who];
      }
    }
    return 0;
  }

  @Test
  void aSellersFloorIsNearZeroWhenIdleAndABuyersCeilingIsTheWorkTheBlockWouldRun() {
    // A site of 128 cores sells a 32-core block for an hour; a job every 10 minutes.
    double rate = 1 / 600.0;
    long idle = ContractPrices.sellFloor(0, rate, 32, 128, 3600);
    long busy = ContractPrices.sellFloor(4 * 3600, rate, 32, 128, 3600);
    assertTrue(idle < busy && busy <= 32L * 3600, idle + " idle, " + busy + " busy");
    assertEquals((long) Math.ceil(ExpectedDelay.of(900, 0, rate) * 32), idle);
    assertEquals(128L * 600, ContractPrices.buyCeiling(600, 32, 128, 3600), "ten minutes of queue: all of it runs");
    assertEquals(32L * 3600, ContractPrices.buyCeiling(4 * 3600, 32, 128, 3600), "a long queue fills the block");
    assertEquals(0, ContractPrices.buyCeiling(0, 32, 128, 3600));
    assertThrows(IllegalArgumentException.class, () -> ContractPrices.sellFloor(0, 0, 32, 128, 3600));
    assertThrows(IllegalArgumentException.class, () -> ContractPrices.buyCeiling(0, 256, 128, 3600));
  }
}
