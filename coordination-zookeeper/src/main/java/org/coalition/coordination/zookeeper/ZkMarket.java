package org.coalition.coordination.zookeeper;

import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Stat;
import org.coalition.coordination.ContractNote;
import org.coalition.coordination.CoordinationException;
import org.coalition.coordination.CoordinationException.Kind;
import org.coalition.coordination.Market;
import org.coalition.coordination.MarketDay;
import org.coalition.coordination.UtilitySums;
import org.coalition.coordination.zookeeper.ZkRecords.CalendarRecord;
import org.coalition.coordination.zookeeper.ZkRecords.ClearingRecord;
import org.coalition.coordination.zookeeper.ZkRecords.CommitRecord;
import org.coalition.coordination.zookeeper.ZkRecords.RevealRecord;
import org.coalition.policy.contracts.Commitment;
import org.coalition.policy.contracts.Commitment.Reveal;
import org.coalition.policy.contracts.ContractLifecycle;
import org.coalition.policy.contracts.ContractLifecycle.Credit;
import org.coalition.policy.contracts.ContractTerms;
import org.coalition.policy.contracts.DayAheadMarket.Outcome;
import org.coalition.policy.contracts.DayAheadMarket.Refusal;
import org.coalition.policy.contracts.DayBids;
import org.coalition.policy.contracts.MarketCalendar;
import org.coalition.policy.contracts.SealedBid;
import org.coalition.zookeeper.policy.FederationAcls;

/**
 * The day-ahead market in ZooKeeper: each member's folder {@code market/SITE/DAY} holds its
 * commitments and reveals ({@code SLOT.TYPE.commit}, {@code SLOT.TYPE.reveal}), its clearing when
 * it led ({@code clearing}) and its notes of its contracts, one per phase ({@code contract.ID.PHASE}),
 * a note that owes a payment ({@link ContractLifecycle#paidWith}) written in one multi with it
 * ({@link ZkLedger#pay}), each written once with {@link FederationAcls#sealed}'s list: the servers let no member change or
 * delete a market record, so no bid is rewritten after the gate or taken back after the close. The gate is the
 * servers' clock: a commitment counts only if its node was made and last changed before the gate
 * ({@code ctime}, {@code mtime}), a reveal only if made between the gate and the reveals' close,
 * so no member backdates a bid. Everything else a peer wrote is refused, counted and logged once
 * in {@link PeerRecords}.
 */
final class ZkMarket implements Market {
  private static final String COMMIT = ".commit";
  private static final String REVEAL = ".reveal";
  private static final String CLEARING = "clearing";
  private static final String CONTRACT = "contract.";
  /** The most nodes read in one member's day folder: 24 slots of 40 block types, commitment and reveal, and their contracts. */
  static final int MAX_DAY_NODES = 4_000;

  private final ZkSite zk;
  private final ZkLedger ledger;
  /** What this site writes its records with: created once, never changed or deleted by it (the servers' policy insists). */
  private final List<ACL> sealed;

  ZkMarket(ZkSite zk, ZkLedger ledger) {
    this.zk = zk;
    this.ledger = ledger;
    this.sealed = FederationAcls.sealed(zk.self);
  }

  /**
   * The federation's calendar, from the operator's {@code market} node (only the operator writes
   * it; {@link MarketCalendar#DEFAULT} on a node left empty), read afresh at each step.
   */
  @Override
  public MarketCalendar calendar() {
    String path = zk.paths.market();
    byte[] data;
    try {
      data = zk.client.getData().forPath(path);
    } catch (KeeperException.NoNodeException e) {
      throw new CoordinationException(Kind.INVALID, "no market at " + path + "; the operator makes it with coalition federation create");
    } catch (Exception e) {
      throw ZkSite.translate("reading the market's calendar at " + path, e);
    }
    if (data == null || data.length == 0) {
      return MarketCalendar.DEFAULT;
    }
    CalendarRecord record = ZkRecords.read(path, data, CalendarRecord.class);
    try {
      return record.calendar();
    } catch (IllegalArgumentException e) {
      throw new CoordinationException(Kind.INVALID, path + ": " + e.getMessage() + "; the operator sets it with coalition federation market");
    }
  }

  @Override
  public void commit(SealedBid bid, String nonce) {
    zk.requireOwn(bid.site());
    MarketCalendar calendar = calendar();
    LocalDate day = sellable(calendar, bid);
    Instant gate = calendar.gate(day);
    if (!zk.clock.instant().isBefore(gate)) {
      throw new CoordinationException(Kind.INVALID, "the gate of the market of " + day + " closed at " + gate + "; bid for a later day");
    }
    String commitment = Commitment.of(bid, nonce);
    create(day, auction(bid) + COMMIT, new CommitRecord(bid.site(), bid.slotStart(), bid.blockType(), commitment),
        "a bid for this slot and block type is committed already; one bid per slot and type");
  }

  @Override
  public void reveal(SealedBid bid, String nonce) {
    zk.requireOwn(bid.site());
    MarketCalendar calendar = calendar();
    LocalDate day = sellable(calendar, bid);
    Instant now = zk.clock.instant();
    if (now.isBefore(calendar.gate(day)) || !now.isBefore(calendar.revealsClose(day))) {
      throw new CoordinationException(Kind.INVALID, "bids for " + day + " are revealed from " + calendar.gate(day) + " until "
          + calendar.revealsClose(day) + ", not at " + now);
    }
    Reveal reveal = new Reveal(bid, nonce);
    String path = zk.paths.marketNode(zk.site, day, auction(bid) + COMMIT);
    try {
      CommitRecord own = ZkRecords.read(path, zk.client.getData().forPath(path), CommitRecord.class);
      if (!reveal.matches(own.commitment())) {
        throw new CoordinationException(Kind.INVALID, "this bid and nonce are not what " + path + " committed; reveal the bid committed");
      }
    } catch (KeeperException.NoNodeException e) {
      throw new CoordinationException(Kind.INVALID, "no commitment at " + path + " to reveal; commit before the gate");
    } catch (CoordinationException e) {
      throw e;
    } catch (Exception e) {
      throw ZkSite.translate("reading " + path, e);
    }
    create(day, auction(bid) + REVEAL, new RevealRecord(bid, nonce), "this bid is revealed already");
  }

  @Override
  public void publishClearing(LocalDate day, List<Outcome> outcomes) {
    create(day, CLEARING, new ClearingRecord(zk.site, day.toString(), outcomes), "this site published the day's clearing already");
  }

  @Override
  public void note(ContractNote note) {
    zk.requireOwn(note.writer());
    LocalDate day = MarketCalendar.dayOf(note.terms().slotStart());
    String taken = "this site noted that phase of the contract already";
    Optional<Credit> owed = ContractLifecycle.paidWith(note.terms(), note.writer(), note.phase());
    if (owed.isEmpty()) {
      create(day, noteName(note), note, taken);
      return;
    }
    String path = zk.paths.marketNode(zk.site, day, noteName(note));
    byte[] bytes = ZkRecords.write(note);
    try {
      ensureDay(day);
    } catch (Exception e) {
      throw ZkSite.translate("writing " + path, e);
    }
    if (!ledger.pay(owed.get().to(), UtilitySums.paid(owed.get().amount(), note.terms().slotStart()), path, bytes, sealed)) {
      sameAsThere(path, bytes, taken);
    }
  }

  /** {@code contract.ID.PHASE}: one node per phase a party has noted, each written once. */
  private static String noteName(ContractNote note) {
    return CONTRACT + note.terms().id() + "." + note.phase().name().toLowerCase(Locale.ROOT);
  }

  @Override
  public MarketDay read(LocalDate day) {
    MarketCalendar calendar = calendar();
    if (zk.clock.instant().isBefore(calendar.revealsClose(day))) {
      return new MarketDay(day, false, List.of(), List.of(), Map.of());
    }
    DayBids bids = new DayBids();
    Map<String, ClearingRecord> clearings = new TreeMap<>();
    Map<String, Map<String, ContractNote>> notes = new TreeMap<>();
    try {
      for (String member : zk.client.getChildren().forPath(zk.paths.market())) {
        readFolder(calendar, member, day, bids, clearings, notes);
      }
    } catch (CoordinationException e) {
      throw e;
    } catch (Exception e) {
      throw ZkSite.translate("reading the market of " + day, e);
    }
    List<Outcome> outcomes = bids.clear(calendar.slot().toSeconds());
    for (Outcome o : outcomes) {
      for (Refusal r : o.refused()) {
        zk.peerRecords.refuse("Bid", zk.paths.marketNode(r.site(), day, auction(o)), r.fault().words());
      }
    }
    List<String> clearedBy = new ArrayList<>();
    clearings.forEach((member, c) -> {
      String path = zk.paths.marketNode(member, day, CLEARING);
      if (c.outcomes().equals(outcomes)) {
        clearedBy.add(member);
        zk.peerRecords.accepted(path);
      } else {
        zk.peerRecords.refuse("Clearing", path, "it is not the clearing of the bids that count (" + firstDifference(c.outcomes(), outcomes)
            + "); every member clears by itself");
      }
    });
    List<ContractTerms> cleared = outcomes.stream().flatMap(o -> o.contracts().stream()).toList();
    Map<String, Map<String, ContractNote>> believed = new TreeMap<>();
    notes.forEach((member, byId) -> byId.forEach((id, note) -> {
      String path = zk.paths.marketNode(member, day, noteName(note));
      if (!cleared.contains(note.terms())) {
        zk.peerRecords.refuse("ContractNote", path, "contract " + id + " is not in the day's clearing on these terms");
      } else {
        believed.computeIfAbsent(id, k -> new TreeMap<>()).put(member, note);
      }
    }));
    return new MarketDay(day, true, outcomes, clearedBy, believed);
  }

  /** Reads {@code member}'s folder for {@code day} into what counts; refuses the rest. */
  private void readFolder(MarketCalendar calendar, String member, LocalDate day, DayBids bids, Map<String, ClearingRecord> clearings,
      Map<String, Map<String, ContractNote>> notes) throws Exception {
    String folder = zk.paths.marketDay(member, day);
    List<String> children;
    try {
      children = zk.client.getChildren().forPath(folder);
    } catch (KeeperException.NoNodeException e) {
      return;
    }
    if (children.size() > MAX_DAY_NODES) {
      zk.peerRecords.refuse("MarketFolder", folder, children.size() + " nodes, over the " + MAX_DAY_NODES + " read; none counts");
      return;
    }
    for (String name : children) {
      String path = folder + "/" + name;
      Stat stat = new Stat();
      byte[] data;
      try {
        data = zk.client.getData().storingStatIn(stat).forPath(path);
      } catch (KeeperException.NoNodeException e) {
        continue; // its writer deleted it meanwhile
      }
      try {
        String why = readNode(calendar, member, day, path, data, stat, bids, clearings, notes);
        if (why == null) {
          zk.peerRecords.accepted(path);
        } else {
          zk.peerRecords.refuse("MarketRecord", path, why);
        }
      } catch (CoordinationException e) {
        zk.peerRecords.refuse("MarketRecord", path, e.getMessage());
      }
    }
  }

  /** Takes one node of {@code member}'s day folder; why it does not count, or null. */
  private String readNode(MarketCalendar calendar, String member, LocalDate day, String path, byte[] data, Stat stat, DayBids bids,
      Map<String, ClearingRecord> clearings, Map<String, Map<String, ContractNote>> notes) {
    String name = path.substring(path.lastIndexOf('/') + 1);
    Instant gate = calendar.gate(day);
    if (name.endsWith(COMMIT)) {
      CommitRecord c = ZkRecords.read(path, data, CommitRecord.class);
      String why = placed(calendar, member, day, name, COMMIT, c.site(), c.slotStart(), c.blockType());
      if (why != null) {
        return why;
      }
      if (stat.getCtime() >= gate.toEpochMilli() || stat.getMtime() >= gate.toEpochMilli()) {
        return "written or changed at " + Instant.ofEpochMilli(Math.max(stat.getCtime(), stat.getMtime())) + ", after the gate at " + gate;
      }
      bids.commitment(c.slotStart(), c.blockType(), member, c.commitment());
      return null;
    }
    if (name.endsWith(REVEAL)) {
      RevealRecord r = ZkRecords.read(path, data, RevealRecord.class);
      SealedBid bid = r.bid();
      String why = placed(calendar, member, day, name, REVEAL, bid.site(), bid.slotStart(), bid.blockType());
      if (why != null) {
        return why;
      }
      if (stat.getCtime() < gate.toEpochMilli() || stat.getCtime() >= calendar.revealsClose(day).toEpochMilli()) {
        return "revealed at " + Instant.ofEpochMilli(stat.getCtime()) + ", outside " + gate + " to " + calendar.revealsClose(day);
      }
      bids.reveal(new Reveal(bid, r.nonce()));
      return null;
    }
    if (name.equals(CLEARING)) {
      ClearingRecord c = ZkRecords.read(path, data, ClearingRecord.class);
      if (!c.leader().equals(member) || !c.day().equals(day.toString())) {
        return "it names leader " + c.leader() + " and day " + c.day();
      }
      clearings.put(member, c);
      return null;
    }
    if (name.startsWith(CONTRACT)) {
      ContractNote n = ZkRecords.read(path, data, ContractNote.class);
      if (!n.writer().equals(member)) {
        return "it names writer " + n.writer();
      }
      if (!name.equals(noteName(n))) {
        return "it holds the " + n.phase() + " note of contract " + n.terms().id();
      }
      // a party's furthest phase is what it says of the contract now
      notes.computeIfAbsent(member, k -> new TreeMap<>()).merge(n.terms().id(), n, (a, b) -> a.phase().compareTo(b.phase()) >= 0 ? a : b);
      return null;
    }
    return "not a market record (SLOT.TYPE.commit, SLOT.TYPE.reveal, clearing, contract.ID.PHASE)";
  }

  /** Why a bid record named {@code name} in {@code member}'s folder for {@code day} is misplaced, or null. */
  private static String placed(MarketCalendar calendar, String member, LocalDate day, String name, String suffix, String site, long slotStart,
      String blockType) {
    if (!site.equals(member) || !name.equals(auction(slotStart, blockType) + suffix)) {
      return "it holds a bid of " + site + " for " + auction(slotStart, blockType);
    }
    return calendar.unsold(day, slotStart);
  }

  /** The day a bid's slot is sold in; INVALID if the calendar does not sell it. */
  private static LocalDate sellable(MarketCalendar calendar, SealedBid bid) {
    LocalDate day = MarketCalendar.dayOf(bid.slotStart());
    String why = calendar.unsold(day, bid.slotStart());
    if (why != null) {
      throw new CoordinationException(Kind.INVALID, "bid of " + bid.site() + ": " + why);
    }
    return day;
  }

  /** An auction's name in node names and messages: {@code SLOT.TYPE}. */
  private static String auction(long slotStart, String blockType) {
    return SealedBid.auction(slotStart, blockType);
  }

  private static String auction(SealedBid bid) {
    return bid.auction();
  }

  private static String auction(Outcome o) {
    return SealedBid.auction(o.slotStart(), o.blockType());
  }

  /**
   * Creates this site's node {@code name} in its folder for {@code day}; {@code taken} is the error
   * when it exists holding something else. The same record written again is no change (a write
   * retried after its answer was lost, or a restarted desk's).
   */
  private void create(LocalDate day, String name, Object record, String taken) {
    String path = zk.paths.marketNode(zk.site, day, name);
    byte[] bytes = ZkRecords.write(record);
    try {
      ensureDay(day);
      zk.client.create().withACL(sealed).forPath(path, bytes);
    } catch (KeeperException.NodeExistsException e) {
      sameAsThere(path, bytes, taken);
    } catch (Exception e) {
      throw ZkSite.translate("writing " + path, e);
    }
  }

  /** A record written again as it is there is no change; anything else in its place is {@code taken}. */
  private void sameAsThere(String path, byte[] bytes, String taken) {
    byte[] there;
    try {
      there = zk.client.getData().forPath(path);
    } catch (Exception read) {
      throw ZkSite.translate("reading " + path, read);
    }
    if (!Arrays.equals(there, bytes)) {
      throw new CoordinationException(Kind.INVALID, path + ": " + taken);
    }
  }

  private void ensureDay(LocalDate day) throws Exception {
    try {
      zk.client.create().withACL(sealed).forPath(zk.paths.marketDay(zk.site, day));
    } catch (KeeperException.NodeExistsException e) {
      // made by an earlier bid of the day
    }
  }

  private static String firstDifference(List<Outcome> published, List<Outcome> expected) {
    Map<String, Outcome> mine = new HashMap<>();
    expected.forEach(o -> mine.put(auction(o), o));
    for (Outcome o : published) {
      Outcome e = mine.remove(auction(o));
      if (e == null) {
        return "auction " + auction(o) + " had no bids that count";
      }
      if (!e.equals(o)) {
        return "auction " + auction(o) + " clears to " + e.contracts().size() + " contracts at "
            + e.contracts().stream().map(ContractTerms::buyPrice).findFirst().orElse(0.0) + ", not as written";
      }
    }
    return mine.isEmpty() ? "the same auctions in another order" : "auction " + mine.keySet().iterator().next() + " is missing";
  }
}
