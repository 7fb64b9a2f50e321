package org.coalition.policy.contracts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class McAfeeAuctionTest {
  private static List<Bid> bids(String prefix, double... prices) {
    List<Bid> bids = new ArrayList<>();
    for (int i = 0; i < prices.length; i++) {
      bids.add(new Bid(prefix + i, prices[i]));
    }
    return bids;
  }

  @Test
  void allEfficientPairsTradeAtTheMidPriceOfTheNextPair() {
    // b = 10, 8, 3; s = 1, 2, 6: k = 2, p0 = (3 + 6) / 2 = 4.5 in [2, 8].
    Clearing c = McAfeeAuction.clear(bids("b", 3, 10, 8), bids("s", 6, 1, 2));
    assertEquals(List.of("b1", "b2"), c.buyers());
    assertEquals(List.of("s1", "s2"), c.sellers());
    assertEquals(4.5, c.buyPrice(), 1e-12);
    assertEquals(4.5, c.sellPrice(), 1e-12);
    assertEquals(0, c.surplus(), 1e-12);
  }

  @Test
  void otherwiseTheLastPairIsDropped() {
    // b = 10, 8, 7.5; s = 1, 7, 9: k = 2, p0 = 8.25 not in [7, 8]: one trade, pay 8, get 7.
    Clearing c = McAfeeAuction.clear(bids("b", 10, 8, 7.5), bids("s", 1, 7, 9));
    assertEquals(List.of("b0"), c.buyers());
    assertEquals(List.of("s0"), c.sellers());
    assertEquals(8, c.buyPrice(), 1e-12);
    assertEquals(7, c.sellPrice(), 1e-12);
    assertEquals(1, c.surplus(), 1e-12);
    assertTrue(c.reason().contains("the last pair is dropped"), c.reason());
  }

  @Test
  void withoutANextPairTheLastPairIsDropped() {
    Clearing c = McAfeeAuction.clear(bids("b", 5, 4), bids("s", 1, 2));
    assertEquals(1, c.trades());
    assertEquals(4, c.buyPrice(), 1e-12);
    assertEquals(2, c.sellPrice(), 1e-12);
  }

  @Test
  void noTradeWhenNoBuyerReachesTheLowestAsk() {
    assertEquals(0, McAfeeAuction.clear(bids("b", 1, 2), bids("s", 3, 4)).trades());
    assertEquals(0, McAfeeAuction.clear(List.of(), bids("s", 3)).trades());
  }

  @Test
  void weaklyBudgetBalancedAndIndividuallyRational() {
    Random random = new Random(17);
    for (int round = 0; round < 5000; round++) {
      double[] b = random.doubles(1 + random.nextInt(8), 0, 100).toArray();
      double[] s = random.doubles(1 + random.nextInt(8), 0, 100).toArray();
      List<Bid> buys = bids("b", b);
      List<Bid> sells = bids("s", s);
      Clearing c = McAfeeAuction.clear(buys, sells);
      assertTrue(c.buyPrice() >= c.sellPrice() - 1e-12, "the auctioneer never pays");
      assertEquals(c.buyers().size(), c.sellers().size());
      for (Bid bid : buys) {
        if (c.buyers().contains(bid.bidder())) {
          assertTrue(bid.price() >= c.buyPrice() - 1e-12, "a winning buyer never pays more than its bid");
        }
      }
      for (Bid ask : sells) {
        if (c.sellers().contains(ask.bidder())) {
          assertTrue(ask.price() <= c.sellPrice() + 1e-12, "a winning seller never gets less than its ask");
        }
      }
    }
  }

  /** Every bidder's utility when all bid their values, against any misreport, on small markets. */
  @Test
  void noBidderGainsByMisreporting() {
    assertTrue(misreportsChecked(new int[][] {{2, 2}, {3, 2}}, Double.NaN) > 100_000);
  }

  /**
   * The same with the bounds of the value (0 and 5, the grid's ends) in place of a missing next
   * pair, on the thin markets where they matter: one buyer and one seller, two and one, one and two.
   */
  @Test
  void noBidderGainsByMisreportingWhenTheValuesBoundsStandInForTheNextPair() {
    assertTrue(misreportsChecked(new int[][] {{1, 1}, {2, 1}, {1, 2}, {2, 2}, {3, 2}}, 5) > 100_000);
    Clearing lone = McAfeeAuction.clear(bids("b", 4), bids("s", 1), Comparator.naturalOrder(), 5);
    assertEquals(1, lone.trades(), "a lone pair trades at (0 + 5) / 2, which lies in [1, 4]");
    assertEquals(2.5, lone.buyPrice(), 1e-12);
    assertEquals(0, McAfeeAuction.clear(bids("b", 2), bids("s", 1), Comparator.naturalOrder(), 5).trades(), "2.5 is not in [1, 2]");
  }

  /** Checks every bidder of every market of {@code shapes} (buyers, sellers) on the value grid against every report; how many checks. */
  private static int misreportsChecked(int[][] shapes, double bound) {
    double[] grid = {0, 1, 2, 3, 4, 5};
    double[] reports = {0, 0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4, 4.5, 5, 5.5, 6};
    int checked = 0;
    for (int[] shape : shapes) {
      int buyers = shape[0];
      int total = buyers + shape[1];
      int[] index = new int[total];
      while (true) {
        double[] value = new double[total];
        for (int i = 0; i < total; i++) {
          value[i] = grid[index[i]];
        }
        for (int who = 0; who < total; who++) {
          double honest = utility(value, buyers, who, value[who], bound);
          for (double r : reports) {
            double lie = utility(value, buyers, who, r, bound);
            assertTrue(lie <= honest + 1e-9, String.format(
                "bidder %d with values %s gains by reporting %s: %s > %s", who, Arrays.toString(value), r, lie, honest));
            checked++;
          }
        }
        int pos = 0;
        while (pos < total && ++index[pos] == grid.length) {
          index[pos++] = 0;
        }
        if (pos == total) {
          break;
        }
      }
    }
    return checked;
  }

  /** Bidder {@code who}'s utility when it reports {@code report} and everyone else bids their value. */
  private static double utility(double[] value, int buyers, int who, double report, double bound) {
    List<Bid> buys = new ArrayList<>();
    List<Bid> sells = new ArrayList<>();
    for (int i = 0; i < value.length; i++) {
      double price = i == who ? report : value[i];
      (i < buyers ? buys : sells).add(new Bid("p" + i, price));
    }
    Clearing c = McAfeeAuction.clear(buys, sells, Comparator.naturalOrder(), bound);
    String name = "p" + who;
    if (who < buyers) {
      return c.buyers().contains(name) ? value[who] - c.buyPrice() : 0;
    }
    return c.sellers().contains(name) ? c.sellPrice() - value[who] : 0;
  }

  @Test
  void badBidsAreRefused() {
    assertThrows(IllegalArgumentException.class, () -> new Bid("x", -1));
    assertThrows(IllegalArgumentException.class, () -> new Bid("x", Double.NaN));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> McAfeeAuction.clear(List.of(new Bid("a", 1), new Bid("a", 2)), List.of()));
    assertTrue(e.getMessage().contains("a placed two buy bids"), e.getMessage());
  }
}
