package org.coalition.policy.contracts;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.coalition.policy.contracts.Commitment.Reveal;
import org.coalition.policy.contracts.SealedBid.Side;

/**
 * Clears one (slot, block type) auction of the day-ahead market from what members wrote: the
 * commitments written before the gate, by site, and the reveals written after it
 * (docs/decisions/0020-capacity-contracts.md). A pure function of its input, so the leader
 * clears and every member recomputes ({@link #verify}).
 *
 * <p>A bid counts when its site committed before the gate, revealed a bid of this auction that
 * matches the commitment, and bid on one side only. The counted bids go to {@link McAfeeAuction};
 * winners are paired rank by rank, the highest winning buyer with the lowest winning seller.
 * Equal prices are ordered by SHA-256 of (slot, block type, site): fixed within an auction and
 * computed alike by every member, but different from slot to slot, so no site is served first
 * every hour for its name.
 */
public final class DayAheadMarket {
  private DayAheadMarket() {}

  /** Why a site's bid did not count. */
  public enum Fault {
    NEVER_REVEALED("committed before the gate and never revealed"),
    NOT_COMMITTED("revealed a bid it had not committed before the gate"),
    WRONG_REVEAL("revealed a bid that does not match its commitment"),
    OTHER_AUCTION("revealed a bid of another slot or block type here"),
    BOTH_SIDES("bid on both sides of one block"),
    TWO_REVEALS("revealed more than one bid");

    private final String words;

    Fault(String words) {
      this.words = words;
    }

    public String words() {
      return words;
    }
  }

  /** A site whose bid was refused, and why. */
  public record Refusal(String site, Fault fault) {}

  /** The contracts of one auction, the refusals, and McAfee's reason for the prices. */
  public record Outcome(long slotStart, String blockType, List<ContractTerms> contracts, List<Refusal> refused, String reason) {
    public Outcome {
      contracts = List.copyOf(contracts);
      refused = List.copyOf(refused);
    }
  }

  /**
   * The outcome of the auction of one block of {@code blockType} in the slot starting at
   * {@code slotStart}, {@code slotSeconds} long. The block is worth at most its core-seconds in
   * the slot, which bound McAfee's price where the market is thin ({@link McAfeeAuction}'s
   * bounded rule: a lone buyer and seller trade at half the block's core-seconds when that lies
   * between their prices).
   */
  public static Outcome clear(long slotStart, String blockType, long slotSeconds, Map<String, String> commitments, List<Reveal> reveals) {
    double value = (double) BlockType.cores(blockType) * slotSeconds;
    Map<String, List<Reveal>> bySite = new HashMap<>();
    for (Reveal r : reveals) {
      bySite.computeIfAbsent(r.bid().site(), s -> new ArrayList<>()).add(r);
    }
    List<Refusal> refused = new ArrayList<>();
    List<Bid> buys = new ArrayList<>();
    List<Bid> sells = new ArrayList<>();
    for (String site : commitments.keySet().stream().sorted().toList()) {
      if (!bySite.containsKey(site)) {
        refused.add(new Refusal(site, Fault.NEVER_REVEALED));
      }
    }
    for (Map.Entry<String, List<Reveal>> e : bySite.entrySet().stream().sorted(Map.Entry.comparingByKey()).toList()) {
      Fault fault = fault(slotStart, blockType, commitments.get(e.getKey()), e.getValue());
      if (fault != null) {
        refused.add(new Refusal(e.getKey(), fault));
        continue;
      }
      SealedBid bid = e.getValue().get(0).bid();
      (bid.side() == Side.BUY ? buys : sells).add(bid.asBid());
    }
    Clearing clearing = McAfeeAuction.clear(buys, sells, ties(slotStart, blockType), value);
    List<ContractTerms> contracts = new ArrayList<>();
    for (int i = 0; i < clearing.trades(); i++) {
      contracts.add(new ContractTerms(clearing.buyers().get(i), clearing.sellers().get(i), slotStart, blockType,
          clearing.buyPrice(), clearing.sellPrice()));
    }
    refused.sort(Comparator.comparing(Refusal::site));
    return new Outcome(slotStart, blockType, contracts, refused, clearing.reason());
  }

  /** Equal prices in the order of SHA-256 of (slot, type, site), then site id. */
  static Comparator<String> ties(long slotStart, String blockType) {
    Map<String, String> keys = new HashMap<>();
    return Comparator.comparing((String site) -> keys.computeIfAbsent(site, s -> Commitment.sha256(slotStart + "\n" + blockType + "\n" + s)))
        .thenComparing(Comparator.naturalOrder());
  }

  private static Fault fault(long slotStart, String blockType, String commitment, List<Reveal> reveals) {
    if (commitment == null) {
      return Fault.NOT_COMMITTED;
    }
    if (reveals.stream().map(r -> r.bid().side()).distinct().count() > 1) {
      return Fault.BOTH_SIDES;
    }
    if (reveals.size() > 1) {
      return Fault.TWO_REVEALS;
    }
    SealedBid bid = reveals.get(0).bid();
    if (bid.slotStart() != slotStart || !bid.blockType().equals(blockType)) {
      return Fault.OTHER_AUCTION;
    }
    return reveals.get(0).matches(commitment) ? null : Fault.WRONG_REVEAL;
  }

  /**
   * What a member finds wrong in the contracts a leader published for this auction, recomputed
   * from the same commitments and reveals: empty when they are exactly the clearing.
   */
  public static List<String> verify(List<ContractTerms> published, long slotStart, String blockType, long slotSeconds,
      Map<String, String> commitments, List<Reveal> reveals) {
    List<ContractTerms> expected = clear(slotStart, blockType, slotSeconds, commitments, reveals).contracts();
    List<String> wrong = new ArrayList<>();
    for (ContractTerms c : published) {
      if (!expected.contains(c)) {
        wrong.add("contract " + c.id() + " at " + c.buyPrice() + "/" + c.sellPrice() + " is not in the clearing");
      }
    }
    for (ContractTerms c : expected) {
      if (!published.contains(c)) {
        wrong.add("contract " + c.id() + " at " + c.buyPrice() + "/" + c.sellPrice() + " of the clearing is missing");
      }
    }
    return wrong;
  }
}
