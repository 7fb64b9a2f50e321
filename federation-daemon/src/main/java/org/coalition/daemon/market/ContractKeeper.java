package org.coalition.daemon.market;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.coalition.coordination.ContractNote;
import org.coalition.coordination.Coordination;
import org.coalition.coordination.CoordinationException;
import org.coalition.coordination.Market;
import org.coalition.coordination.MarketDay;
import org.coalition.daemon.base.BoughtSlots;
import org.coalition.daemon.base.Decisions;
import org.coalition.daemon.base.SoldSlots;
import org.coalition.handler.Escrow;
import org.coalition.handler.HandlerException;
import org.coalition.policy.contracts.BlockType;
import org.coalition.policy.contracts.Contract.Phase;
import org.coalition.policy.contracts.ContractLifecycle;
import org.coalition.policy.contracts.ContractTerms;
import org.coalition.policy.contracts.MarketCalendar;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A site's contracts from their slot's start to their end (docs/decisions/0020-capacity-contracts.md),
 * judged from the parties' notes alone, so a restarted daemon goes on where it was. At the slot's
 * start a contract not acknowledged by both parties lapses (the seller's escrow released). The
 * seller then hands its escrow to the buyer's pool account and notes {@code OPEN} with the
 * reservation's name, or {@code BROKEN} if the reservation is gone, the buyer has no pool account
 * here, or the slot passed before it could; during the slot it checks the reservation is still
 * there; at its end it notes {@code SETTLED} and releases what is left. The buyer follows the
 * seller's notes and its own jobs ({@link BlockService}): once the seller noted {@code OPEN}, the
 * buyer notes {@code OPEN} when the seller has claimed one of its jobs, or at the slot's end if
 * nothing of its waited for the block, and {@code BROKEN} as soon as a job that fits the block
 * waited unclaimed for the grace while the seller took none (a seller that opens and gives
 * nothing); at the end {@code SETTLED}, or {@code BROKEN} if the slot was never opened. The
 * buyer's {@code OPEN} pays the holding fee and the seller's {@code BROKEN} the price, from each
 * one's ledger row in the same write ({@link ContractLifecycle#paidWith}); the buyer's
 * {@code BROKEN} pays nothing. Every step is a {@code decision=market-contract} line.
 */
final class ContractKeeper {
  private static final Logger LOG = LoggerFactory.getLogger(ContractKeeper.class);
  /** The longest reservation name every batch system here takes. */
  private static final int NAME_MAX = 64;

  private final Coordination coordination;
  private final String site;
  private final Optional<Escrow> escrow;
  private final Function<String, Optional<String>> poolAccount;
  private final Decisions decisions;
  private final BoughtSlots bought;

  /** {@code bought}: the home side's view, read here for the runs each seller gave back ({@link BoughtSlots#lastRunAt}). */
  ContractKeeper(Coordination coordination, Optional<Escrow> escrow, Function<String, Optional<String>> poolAccount, Decisions decisions,
      BoughtSlots bought) {
    this.coordination = coordination;
    this.bought = bought;
    this.site = coordination.site();
    this.escrow = escrow;
    this.poolAccount = poolAccount;
    this.decisions = decisions;
  }

  /**
   * The escrow's name for a site's block of {@code blockType} in the slot starting at {@code slot}:
   * the same at every step, so a restarted daemon finds what it held. {@code coalition_SLOT_TYPE}
   * with the type's dots as underscores (Grid Engine and HTCondor names take letters, digits and
   * underscores only), or the type's hash where it has a dash (which would read as an underscore)
   * or the name would be longer than batch systems take.
   */
  static String escrowName(long slot, String blockType) {
    String name = "coalition_" + slot + "_" + blockType.replace('.', '_');
    if (name.length() <= NAME_MAX && blockType.indexOf('-') < 0) {
      return name;
    }
    try {
      byte[] hash = MessageDigest.getInstance("SHA-256").digest(blockType.getBytes(StandardCharsets.UTF_8));
      return "coalition_" + slot + "_" + HexFormat.of().formatHex(hash, 0, 12);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java has SHA-256", e);
    }
  }

  /** Releases a block held in escrow, if any; a batch system that refuses is logged, and Slurm ends the reservation at the slot's end anyway. */
  void release(String name, String what) {
    if (escrow.isEmpty()) {
      return;
    }
    try {
      if (escrow.get().release(name)) {
        decisions.record("market-escrow", what, "released", "reservation " + name + " given back to the site's own users");
      }
    } catch (HandlerException e) {
      LOG.warn("site {}: reservation {} is not released ({}); remove it by hand if it outlives its slot", site, name, e.getMessage());
    }
  }

  /** The slots a step leaves open: those the site sold (handed to their buyers) and those it bought (not broken by their sellers). */
  record Open(List<SoldSlots.Slot> sold, List<BoughtSlots.Slot> bought) {
    static final Open NONE = new Open(List.of(), List.of());
  }

  /** One step over the site's contracts of a closed day whose slot has started; the slots open after it. */
  Open step(Market market, MarketCalendar calendar, MarketDay day, Instant now) {
    List<SoldSlots.Slot> open = new ArrayList<>();
    List<BoughtSlots.Slot> boughtOpen = new ArrayList<>();
    for (ContractTerms c : day.outcomes().stream().flatMap(o -> o.contracts().stream())
        .filter(c -> c.buyer().equals(site) || c.seller().equals(site)).toList()) {
      Instant start = Instant.ofEpochSecond(c.slotStart());
      if (now.isBefore(start)) {
        continue;
      }
      Map<String, ContractNote> notes = day.notes().getOrDefault(c.id(), Map.of());
      boolean selling = c.seller().equals(site);
      ContractNote mine = notes.get(site);
      ContractNote theirs = notes.get(selling ? c.buyer() : c.seller());
      Phase own = mine == null ? Phase.CLEARED : mine.phase();
      if (own.isFinal()) {
        continue;
      }
      Instant end = start.plus(calendar.slot());
      boolean ended = !now.isBefore(end);
      if (!bound(own) || !bound(theirs == null ? Phase.CLEARED : theirs.phase())) {
        lapse(market, c, selling);
      } else if (selling) {
        if (sell(market, c, own, ended)) {
          open.add(new SoldSlots.Slot(c.buyer(), escrowName(c.slotStart(), c.blockType()), (int) BlockType.cores(c.blockType()), end));
        }
      } else if (buy(market, c, own, theirs, ended, calendar.slot(), now) && !ended && theirs.phase() != Phase.BROKEN) {
        boughtOpen.add(new BoughtSlots.Slot(c.seller(), (int) BlockType.cores(c.blockType()), end));
      }
    }
    return new Open(open, boughtOpen);
  }

  /** Acknowledged by that party, and not lapsed. */
  private static boolean bound(Phase phase) {
    return phase != Phase.CLEARED && phase != Phase.LAPSED;
  }

  private void lapse(Market market, ContractTerms c, boolean selling) {
    if (note(market, c, Phase.LAPSED, "")) {
      decisions.record("market-contract", c.id(), "lapsed", "not acknowledged by both parties when its slot opened; nothing is paid");
    }
    if (selling) {
      release(escrowName(c.slotStart(), c.blockType()), c.id());
    }
  }

  /** The seller's step; whether the slot is open, handed to the buyer, after it. */
  private boolean sell(Market market, ContractTerms c, Phase own, boolean ended) {
    String name = escrowName(c.slotStart(), c.blockType());
    if (own == Phase.OPEN) {
      if (ended) {
        if (note(market, c, Phase.SETTLED, name)) {
          decisions.record("market-contract", c.id(), "settled", "the slot ended with the block given to " + c.buyer());
        }
        release(name, c.id());
        return false;
      }
      if (seen(name) == Seen.GONE) {
        broken(market, c, name, "reservation " + name + " was removed during the slot");
        return false;
      }
      return true;
    }
    if (ended) {
      broken(market, c, name, "the slot passed before this site opened it");
      return false;
    }
    Optional<String> pool = poolAccount.apply(c.buyer());
    if (pool.isEmpty()) {
      broken(market, c, name, "this site maps no pool account to " + c.buyer() + " (accounts in the site file)");
      return false;
    }
    Seen there = seen(name);
    if (there != Seen.THERE) {
      if (there == Seen.GONE) {
        broken(market, c, name, "no reservation " + name + " at the slot's start");
      }
      return false;
    }
    try {
      escrow.orElseThrow().handOver(name, pool.get());
    } catch (HandlerException e) {
      LOG.warn("site {}: reservation {} is not handed to {} yet ({}); the next step tries again", site, name, pool.get(), e.getMessage());
      return false;
    }
    if (!note(market, c, Phase.OPEN, name)) {
      return false;
    }
    decisions.record("market-contract", c.id(), "opened", "reservation " + name + " handed to " + c.buyer() + "'s pool account " + pool.get());
    return true;
  }

  /** The buyer's step; false when it noted the contract broken (a seller that opened and served nothing), so the slot is not open to it. */
  private boolean buy(Market market, ContractTerms c, Phase own, ContractNote seller, boolean ended, Duration slot, Instant now) {
    Phase theirs = seller.phase();
    boolean given = theirs == Phase.OPEN || theirs == Phase.SETTLED;
    if (given && own == Phase.ACKNOWLEDGED) {
      BlockService.Reading seen = BlockService.read(coordination.jobs(site), bought.lastRunAt(c.seller()), c, slot, coordination.now(), now);
      if (seen.verdict() == BlockService.Verdict.UNSERVED) {
        if (note(market, c, Phase.BROKEN, seller.reservation())) {
          decisions.record("market-contract", c.id(), "unserved", c.seller() + " noted the slot open in " + seller.reservation()
              + " but claimed none of this site's jobs: " + seen.detail() + "; no holding fee is paid, and the slot is not used");
        }
        return false;
      }
      if (seen.verdict() == BlockService.Verdict.NOT_YET && !ended) {
        return true;
      }
      // the note that pays the holding fee (ContractLifecycle.paidWith), before SETTLED even when this site saw the slot late
      if (!note(market, c, Phase.OPEN, seller.reservation())) {
        return true;
      }
      decisions.record("market-contract", c.id(), "opened", c.seller() + " opened the slot in reservation " + seller.reservation()
          + (seen.verdict() == BlockService.Verdict.SERVED ? " and served it (" + seen.detail() + ")" : " and nothing of this site's waited for it")
          + "; the holding fee of " + ContractLifecycle.PREPAID_RATIO * c.sellPrice() + " is paid to it");
    }
    if (ended) {
      Phase last = given ? Phase.SETTLED : Phase.BROKEN;
      if (note(market, c, last, seller.reservation())) {
        decisions.record("market-contract", c.id(), given ? "settled" : "broken", given ? "the slot ended; " + c.seller() + " gave it"
            : c.seller() + " never opened the slot");
      }
    }
    return true;
  }

  private void broken(Market market, ContractTerms c, String name, String why) {
    if (note(market, c, Phase.BROKEN, "")) {
      decisions.record("market-contract", c.id(), "broken", why + "; this site pays " + c.buyer() + " the price of " + c.sellPrice());
    }
    release(name, c.id());
  }

  /** Whether the batch system shows the reservation, or could not be read (judged again at the next step, not taken as gone). */
  private enum Seen { THERE, GONE, UNREAD }

  private Seen seen(String name) {
    try {
      return escrow.orElseThrow().find(name).isPresent() ? Seen.THERE : Seen.GONE;
    } catch (HandlerException e) {
      LOG.warn("site {}: cannot read reservation {} ({}); the next step looks again", site, name, e.getMessage());
      return Seen.UNREAD;
    }
  }

  /** Writes this site's note of {@code c} in {@code phase}; false, logged, when the market refused (the next step tries again). */
  private boolean note(Market market, ContractTerms c, Phase phase, String reservation) {
    try {
      market.note(new ContractNote(site, c, phase, reservation));
      return true;
    } catch (CoordinationException e) {
      LOG.warn("site {}: contract {} is not noted {} yet ({}); the next step tries again", site, c.id(), phase, e.getMessage());
      return false;
    }
  }
}
