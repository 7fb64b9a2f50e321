package org.coalition.coordination.zookeeper;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.coalition.coordination.zookeeper.HostileWrites.JUNK;
import static org.coalition.coordination.zookeeper.HostileWrites.assertNoAuth;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.data.ACL;
import org.coalition.coordination.ContractNote;
import org.coalition.coordination.CoordinationException;
import org.coalition.coordination.Credit;
import org.coalition.coordination.LedgerRow;
import org.coalition.coordination.Market;
import org.coalition.coordination.MarketDay;
import org.coalition.coordination.SiteLedger;
import org.coalition.coordination.UtilitySums;
import org.coalition.coordination.zookeeper.ZkRecords.CommitRecord;
import org.coalition.coordination.zookeeper.ZkRecords.RevealRecord;
import org.coalition.policy.contracts.Commitment;
import org.coalition.policy.contracts.Contract.Phase;
import org.coalition.policy.contracts.ContractTerms;
import org.coalition.policy.contracts.DayAheadMarket.Fault;
import org.coalition.policy.contracts.DayAheadMarket.Outcome;
import org.coalition.policy.contracts.DayAheadMarket.Refusal;
import org.coalition.policy.contracts.MarketCalendar;
import org.coalition.policy.contracts.SealedBid;
import org.coalition.policy.contracts.SealedBid.Side;
import org.coalition.policy.fairness.Utility;
import org.coalition.testbed.zookeeper.Ensemble;
import org.coalition.zookeeper.policy.FederationAcls;
import org.coalition.zookeeper.policy.Identity;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The day-ahead market on a real server (docs/decisions/0020-capacity-contracts.md): five members
 * bid for tomorrow's second slot with a gate seconds ahead; b and d buy at 100 and 60, a and
 * c sell at 10 and 80, so McAfee pairs b with a at (60 + 80) / 2 = 70. Site e is hostile: it
 * reveals a bid other than the one it sealed, backdates a commitment with its own client and tries
 * to rewrite or take one back, publishes a clearing in its own favour and writes a contract it is
 * no party of. Every member clears alike and refuses each of e's records, counted; the servers
 * refuse e's writes outside its own folder and any change or deletion of a market record. A note
 * that owes a payment pays it once from its writer's ledger row; a row taking one back is not believed.
 */
class ZkMarketIT {
  private static final String TYPE = "batch.cpu8x1";
  private static final Duration GATE_LEAD = Duration.ofSeconds(6);
  private static final Duration STEP = Duration.ofSeconds(4);
  private static final SecureRandom RANDOM = new SecureRandom();
  private static Ensemble server;

  private ZkTestFederation fed;
  private ZkPaths paths;
  private MarketCalendar calendar;
  private LocalDate day;
  private long slot;

  @BeforeAll
  static void start() throws Exception {
    server = SharedServer.get();
  }

  @BeforeEach
  void federation() {
    fed = new ZkTestFederation(server, Clock.systemUTC(), List.of("a", "b", "c", "d", "e"));
    paths = new ZkPaths(fed.name);
    day = LocalDate.now(ZoneOffset.UTC).plusDays(1);
    slot = MarketCalendar.start(day).getEpochSecond() + 3600;
  }

  /**
   * The operator's calendar, set once the members are connected (on a loaded machine that takes
   * seconds): the gate for tomorrow {@link #GATE_LEAD} from now, the reveals closing {@link #STEP} later.
   */
  private void openMarket() {
    Instant gate = Instant.now().plus(GATE_LEAD).plusSeconds(1).truncatedTo(ChronoUnit.SECONDS); // the calendar is whole seconds
    calendar = new MarketCalendar(Duration.between(gate, MarketCalendar.start(day)), STEP, Duration.ofHours(1));
    ZkFederation.setMarketCalendar(fed.connectString, fed.operator(), calendar);
  }

  private static String nonce() {
    byte[] bytes = new byte[Commitment.NONCE_BYTES];
    RANDOM.nextBytes(bytes);
    return HexFormat.of().formatHex(bytes);
  }

  /** a..e's daemons, in that order, and e's own ZooKeeper client, which writes what e's daemon would not. */
  private record Members(Map<String, ZkCoordination> sites, CuratorFramework e) implements AutoCloseable {
    @Override
    public void close() {
      e.close();
      sites.values().forEach(ZkCoordination::close);
    }
  }

  private Members members() {
    Map<String, ZkCoordination> sites = new LinkedHashMap<>();
    for (String s : List.of("a", "b", "c", "d", "e")) {
      sites.put(s, fed.connect(s));
    }
    Members members = new Members(sites, ZkFederation.client(fed.connectString, fed.tls("e"), ZkFederation.Options.DEFAULT));
    openMarket();
    return members;
  }

  /** The honest four's bids, by site. */
  private Map<String, SealedBid> honestBids() {
    Map<String, SealedBid> bids = new LinkedHashMap<>();
    bids.put("b", new SealedBid("b", slot, TYPE, Side.BUY, 100));
    bids.put("d", new SealedBid("d", slot, TYPE, Side.BUY, 60));
    bids.put("a", new SealedBid("a", slot, TYPE, Side.SELL, 10));
    bids.put("c", new SealedBid("c", slot, TYPE, Side.SELL, 80));
    return bids;
  }

  /** Each of {@code bids} committed by its site's daemon; their nonces by site. */
  private Map<String, String> commit(Map<String, ZkCoordination> sites, Map<String, SealedBid> bids) {
    Map<String, String> nonces = new LinkedHashMap<>();
    bids.forEach((s, bid) -> {
      nonces.put(s, nonce());
      sites.get(s).market().commit(bid, nonces.get(s));
      sites.get(s).market().commit(bid, nonces.get(s)); // again, as a write retried after its answer was lost: no change
      SealedBid other = new SealedBid(s, bid.slotStart(), bid.blockType(), bid.side(), bid.price() + 1);
      assertThrows(CoordinationException.class, () -> sites.get(s).market().commit(other, nonces.get(s)), "one bid per slot and type");
    });
    return nonces;
  }

  private void waitUntil(Instant when) throws InterruptedException {
    long ms = Duration.between(Instant.now(), when).toMillis();
    if (ms > 0) {
      Thread.sleep(ms + 200); // past it on the servers' clock too: they run on this machine
    }
  }

  private ContractTerms bFromAAt70() {
    return new ContractTerms("b", "a", slot, TYPE, 70, 70);
  }

  @Test
  void everyMemberClearsTheSameContractFromBidsSealedBeforeTheGateAndRevealedAfterIt() throws Exception {
    try (Members members = members()) {
      Map<String, ZkCoordination> sites = members.sites();
      Map<String, Market> markets = new LinkedHashMap<>();
      sites.forEach((s, c) -> markets.put(s, c.market()));
      Map<String, SealedBid> bids = honestBids();
      Map<String, String> nonces = new LinkedHashMap<>();
      bids.forEach((s, bid) -> {
        nonces.put(s, nonce());
        markets.get(s).commit(bid, nonces.get(s));
      });
      CoordinationException early = assertThrows(CoordinationException.class, () -> markets.get("b").reveal(bids.get("b"), nonces.get("b")));
      assertTrue(early.getMessage().contains("revealed from"), "a reveal before the gate is refused: " + early.getMessage());
      assertThrows(CoordinationException.class, () -> markets.get("b").commit(bids.get("b"), nonce()), "one bid per slot and type");
      assertFalse(markets.get("c").read(day).closed(), "nothing clears before the reveals close");

      waitUntil(calendar.gate(day));
      CoordinationException late = assertThrows(CoordinationException.class,
          () -> markets.get("e").commit(new SealedBid("e", slot, TYPE, Side.SELL, 1), nonce()));
      assertTrue(late.getMessage().contains("gate"), "a commitment after the gate is refused: " + late.getMessage());
      assertThrows(CoordinationException.class, () -> markets.get("b").reveal(new SealedBid("b", slot, TYPE, Side.BUY, 99), nonces.get("b")),
          "a site's own daemon will not reveal a bid other than the one it sealed");
      bids.forEach((s, bid) -> markets.get(s).reveal(bid, nonces.get(s)));

      waitUntil(calendar.revealsClose(day));
      List<Outcome> seen = new ArrayList<>();
      for (Market m : markets.values()) {
        MarketDay read = m.read(day);
        assertTrue(read.closed());
        assertEquals(1, read.outcomes().size(), "one auction: tomorrow's second slot of " + TYPE);
        seen.add(read.outcomes().get(0));
      }
      assertEquals(List.of(bFromAAt70()), seen.get(0).contracts(), "McAfee: one efficient pair, the next pair's mid price 70 in [10, 100]");
      seen.forEach(o -> assertEquals(seen.get(0), o, "every member clears alike"));

      markets.get("a").publishClearing(day, markets.get("a").read(day).outcomes());
      markets.get("a").note(new ContractNote("a", bFromAAt70(), Phase.ACKNOWLEDGED, ""));
      markets.get("b").note(new ContractNote("b", bFromAAt70(), Phase.ACKNOWLEDGED, ""));
      MarketDay atC = markets.get("c").read(day);
      assertEquals(List.of("a"), atC.clearedBy(), "a's clearing is the one c computed");
      assertEquals(Map.of("a", Phase.ACKNOWLEDGED, "b", Phase.ACKNOWLEDGED),
          Map.of("a", atC.notes().get(bFromAAt70().id()).get("a").phase(), "b", atC.notes().get(bFromAAt70().id()).get("b").phase()),
          "both parties' acknowledgements, as every member reads them");
      assertEquals(Map.of(), sites.get("c").refusedPeerRecords(), "an honest day refuses nothing");
      assertEquals(4, ZkFederation.forgetMarketBefore(fed.connectString, fed.operator(), day.plusDays(1)),
          "the operator deletes the day's folders of a, b, c and d (e's bid was refused before it wrote)");
      assertEquals(List.of(), markets.get("c").read(day).outcomes(), "the day's records are gone");
    }
  }

  @Test
  void aMemberThatRevealsADifferentBidOrBackdatesOrRewritesOneIsRefusedAndTheRestClearsAsWithoutIt() throws Exception {
    try (Members members = members()) {
      Map<String, ZkCoordination> sites = members.sites();
      CuratorFramework e = members.e();
      Map<String, String> nonces = commit(sites, honestBids());
      // e seals a sell at 5, which would win, and a second bid for the next slot it will rewrite after the gate
      String eNonce = nonce();
      SealedBid sealed = new SealedBid("e", slot, TYPE, Side.SELL, 5);
      sites.get("e").market().commit(sealed, eNonce);
      SealedBid next = new SealedBid("e", slot + 3600, TYPE, Side.SELL, 90);
      sites.get("e").market().commit(next, eNonce);

      waitUntil(calendar.gate(day));
      honestBids().forEach((s, bid) -> sites.get(s).market().reveal(bid, nonces.get(s)));
      List<ACL> sealedAcl = FederationAcls.sealed(new Identity(fed.name, "e"));
      String nextCommit = paths.marketNode("e", day, (slot + 3600) + "." + TYPE + ".commit");
      assertNoAuth("make a market record it could rewrite", () -> e.create().withACL(FederationAcls.own(new Identity(fed.name, "e")))
          .forPath(paths.marketNode("e", day, slot + "." + TYPE + ".reveal"), JUNK));
      // a reveal of another price than sealed, written with e's own client (its daemon would not)
      e.create().withACL(sealedAcl).forPath(paths.marketNode("e", day, slot + "." + TYPE + ".reveal"),
          ZkRecords.write(new RevealRecord(new SealedBid("e", slot, TYPE, Side.SELL, 1), eNonce)));
      // the next slot's commitment rewritten after the gate to seal a buy at 200, or taken back: the servers refuse both
      SealedBid rewritten = new SealedBid("e", slot + 3600, TYPE, Side.BUY, 200);
      assertNoAuth("rewrite its sealed commitment after the gate", () -> e.setData().forPath(nextCommit,
          ZkRecords.write(new CommitRecord("e", slot + 3600, TYPE, Commitment.of(rewritten, eNonce)))));
      assertNoAuth("take its commitment back", () -> e.delete().forPath(nextCommit));
      e.create().withACL(sealedAcl).forPath(paths.marketNode("e", day, (slot + 3600) + "." + TYPE + ".reveal"),
          ZkRecords.write(new RevealRecord(rewritten, eNonce)));
      // and a commitment made after the gate, named as if for a third slot
      SealedBid backdated = new SealedBid("e", slot + 7200, TYPE, Side.BUY, 300);
      e.create().withACL(sealedAcl).forPath(paths.marketNode("e", day, (slot + 7200) + "." + TYPE + ".commit"),
          ZkRecords.write(new CommitRecord("e", slot + 7200, TYPE, Commitment.of(backdated, eNonce))));
      e.create().withACL(sealedAcl).forPath(paths.marketNode("e", day, (slot + 7200) + "." + TYPE + ".reveal"),
          ZkRecords.write(new RevealRecord(backdated, eNonce)));
      e.create().withACL(sealedAcl).forPath(paths.marketNode("e", day, "notes"), JUNK);

      waitUntil(calendar.revealsClose(day));
      MarketDay atC = sites.get("c").market().read(day);
      Map<Long, Outcome> bySlot = new LinkedHashMap<>();
      atC.outcomes().forEach(o -> bySlot.put(o.slotStart(), o));
      assertEquals(List.of(bFromAAt70()), bySlot.get(slot).contracts(), "the honest four clear as without e");
      assertEquals(List.of(new Refusal("e", Fault.WRONG_REVEAL)), bySlot.get(slot).refused(), "e's reveal is not what it sealed");
      assertEquals(List.of(new Refusal("e", Fault.WRONG_REVEAL)), bySlot.get(slot + 3600).refused(),
          "the commitment stayed as sealed, so the rewritten bid's reveal does not match it");
      assertEquals(List.of(new Refusal("e", Fault.NOT_COMMITTED)), bySlot.get(slot + 7200).refused(),
          "a commitment made after the gate does not count");
      Map<String, Long> refused = sites.get("c").refusedPeerRecords();
      assertEquals(3L, refused.get("Bid"), "the three refused bids, each counted once: " + refused);
      assertEquals(2L, refused.get("MarketRecord"), "a late commitment and a node that is no market record: " + refused);
      assertNoAuth("take a revealed bid back after the close", () -> e.delete().forPath(paths.marketNode("e", day, slot + "." + TYPE + ".reveal")));
      sites.get("c").market().read(day);
      assertEquals(refused, sites.get("c").refusedPeerRecords(), "read again, nothing is counted twice");
    }
  }

  @Test
  void aWrongClearingAContractOfAThirdSiteAndWritesOutsideItsFolderAreRefused() throws Exception {
    try (Members members = members()) {
      Map<String, ZkCoordination> sites = members.sites();
      CuratorFramework e = members.e();
      Map<String, String> nonces = commit(sites, honestBids());
      assertNoAuth("write a commitment in a's folder", () -> e.create().withACL(FederationAcls.own(new Identity(fed.name, "e")))
          .forPath(paths.marketDay("a", day) + "/" + slot + "." + TYPE + ".commit", JUNK));
      assertNoAuth("rewrite a's commitment", () -> e.setData().forPath(paths.marketDay("a", day) + "/" + slot + "." + TYPE + ".commit", JUNK));
      assertNoAuth("set the federation's market calendar", () -> e.setData().forPath(paths.market(), JUNK));
      assertEquals(calendar, sites.get("e").market().calendar(), "every member judges by the operator's calendar");
      assertNoAuth("add a market folder of its own making", () -> e.create().forPath(paths.market() + "/sybil", JUNK));
      waitUntil(calendar.gate(day));
      honestBids().forEach((s, bid) -> sites.get(s).market().reveal(bid, nonces.get(s)));
      waitUntil(calendar.revealsClose(day));

      List<Outcome> honest = sites.get("a").market().read(day).outcomes();
      sites.get("a").market().publishClearing(day, honest);
      Outcome o = honest.get(0);
      ContractTerms forE = new ContractTerms("e", "a", slot, TYPE, 10, 10);
      sites.get("e").market().publishClearing(day,
          List.of(new Outcome(o.slotStart(), o.blockType(), List.of(forE), o.refused(), o.reason())));
      // a note of the a-b contract in e's folder, written around the check e's own daemon makes
      e.create().withACL(FederationAcls.sealed(new Identity(fed.name, "e"))).forPath(paths.marketNode("e", day, "contract." + bFromAAt70().id()
          + ".broken"),
          ("{\"writer\":\"e\",\"terms\":" + new String(ZkRecords.write(bFromAAt70()), UTF_8)
              + ",\"phase\":\"BROKEN\",\"reservation\":\"\"}").getBytes(UTF_8));
      assertThrows(IllegalArgumentException.class, () -> new ContractNote("e", bFromAAt70(), Phase.ACKNOWLEDGED, ""),
          "e's daemon notes only contracts it is a party of");
      sites.get("e").market().note(new ContractNote("e", forE, Phase.ACKNOWLEDGED, ""));
      assertNoAuth("nest nodes below a record", () -> e.create().withACL(FederationAcls.sealed(new Identity(fed.name, "e")))
          .forPath(paths.marketNode("e", day, "contract." + forE.id() + ".acknowledged") + "/child", JUNK));

      MarketDay atC = sites.get("c").market().read(day);
      assertEquals(List.of("a"), atC.clearedBy(), "only a's clearing is the one c computed");
      assertEquals(Map.of(), atC.notes(), "neither e's note of a's contract nor its note of a contract never cleared");
      Map<String, Long> refused = sites.get("c").refusedPeerRecords();
      assertEquals(1L, refused.get("Clearing"), "e's clearing, counted once: " + refused);
      assertEquals(1L, refused.get("ContractNote"), "e's contract that was never cleared: " + refused);
      assertEquals(1L, refused.get("MarketRecord"), "e's note of a contract it is no party of: " + refused);
    }
  }

  @Test
  void aNoteThatOwesAPaymentPaysItFromItsWritersRowOnceInTheSameWriteAndARowThatTakesOneBackIsNotBelieved() throws Exception {
    try (Members members = members()) {
      Map<String, ZkCoordination> sites = members.sites();
      Map<String, String> nonces = commit(sites, honestBids());
      waitUntil(calendar.gate(day));
      honestBids().forEach((s, bid) -> sites.get(s).market().reveal(bid, nonces.get(s)));
      waitUntil(calendar.revealsClose(day));
      ContractTerms c = bFromAAt70();
      Market a = sites.get("a").market();
      Market b = sites.get("b").market();
      a.note(new ContractNote("a", c, Phase.ACKNOWLEDGED, ""));
      b.note(new ContractNote("b", c, Phase.ACKNOWLEDGED, ""));
      assertEquals(Map.of(), sites.get("c").ledgerRows().get("b").paid(), "an acknowledgement pays nothing yet");
      a.note(new ContractNote("a", c, Phase.OPEN, "coalition_r1"));
      b.note(new ContractNote("b", c, Phase.OPEN, "coalition_r1"));
      b.note(new ContractNote("b", c, Phase.OPEN, "coalition_r1")); // again, as a retry after a lost answer: no second fee
      assertThrows(CoordinationException.class, () -> b.note(new ContractNote("b", c, Phase.OPEN, "coalition_r2")),
          "one note per phase");
      Credit fee = new Credit(UtilitySums.paid(35, slot), 1);
      assertEquals(Map.of("a", fee), sites.get("c").ledgerRows().get("b").paid(), "the holding fee, once: half of a's price of 70");
      assertEquals(Map.of(), sites.get("c").ledgerRows().get("a").paid(), "a seller's opening pays nothing");

      a.note(new ContractNote("a", c, Phase.BROKEN, "")); // a took the reservation back during the slot
      assertEquals(Map.of("b", new Credit(UtilitySums.paid(70, slot), 1)), sites.get("c").ledgerRows().get("a").paid(),
          "a breaking seller pays the price");
      Map<String, SiteLedger> atD = sites.get("d").ledgers();
      assertEquals(35 - 70, atD.get("a").priority(Utility.SIMPL, slot), 1e-9);
      assertEquals(70 - 35, atD.get("b").priority(Utility.SIMPL, slot), 1e-9);
      assertEquals(0, atD.get("a").jobsExecuted() + atD.get("b").jobsSubmitted(), "payments are no runs");

      String eRow = paths.ledger("e");
      members.e().setData().forPath(eRow, eRow(100));
      assertEquals(100, sites.get("c").ledgers().get("a").contribution().simpl().at(0) - 35, 1e-9, "e's payment to a, believed");
      members.e().setData().forPath(eRow, eRow(1));
      assertEquals(fee.sums().simpl().intercept() + 100, sites.get("c").ledgers().get("a").contribution().simpl().at(0), 1e-9,
          "e taking back what it paid is not believed");
      assertEquals(1L, sites.get("c").refusedPeerRecords().get("LedgerRow"), sites.get("c").refusedPeerRecords().toString());
    }
  }

  /** e's ledger row, as e's own client writes it: one payment of {@code amount} to a. */
  private byte[] eRow(double amount) {
    return ZkRecords.write(new LedgerRow("e", Map.of(), Map.of("a", new Credit(UtilitySums.paid(amount, slot), 1))));
  }
}
