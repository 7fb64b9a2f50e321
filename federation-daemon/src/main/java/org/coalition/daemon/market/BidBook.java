package org.coalition.daemon.market;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.coalition.daemon.base.OwnerOnlyFolder;
import org.coalition.policy.contracts.Commitment;
import org.coalition.policy.contracts.SealedBid;

/**
 * The one secret of a site's sealed bids: each bid of a day with its nonce, in
 * {@code SPOOL/market/DAY.bids} (mode 0600, in a folder only the daemon's user enters), kept from
 * before its commitment is written until the day has cleared, so that a daemon restarted between
 * the gate and the close still reveals (docs/decisions/0020-capacity-contracts.md). Replaced whole
 * at each change, as the pilot journal is. Which bids are committed and revealed is in the file
 * too, so the desk asks the market nothing twice; the market's records stay what counts.
 */
public final class BidBook {
  /** The most a day's file may hold: 24 slots of 40 block types, each bid about 300 bytes, with room. */
  static final long MAX_BYTES = 1L << 20;
  private static final ObjectMapper JSON = JsonMapper.builder().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();
  private static final String SUFFIX = ".bids";

  /** One of the site's bids: sealed with {@code nonce}; whether its commitment and its reveal are written. */
  public record OwnBid(SealedBid bid, String nonce, boolean committed, boolean revealed) {
    public OwnBid {
      Objects.requireNonNull(bid, "bid");
      if (!Commitment.isHex64(nonce)) {
        throw new IllegalArgumentException("the nonce of the bid for " + bid.slotStart() + "." + bid.blockType() + " must be 64 hex digits");
      }
    }

    OwnBid asCommitted() {
      return new OwnBid(bid, nonce, true, revealed);
    }

    OwnBid asRevealed() {
      return new OwnBid(bid, nonce, committed, true);
    }

    /** Whether this is the bid of the auction of {@code blockType} in the slot starting at {@code slotStart}. */
    boolean of(long slotStart, String blockType) {
      return bid.slotStart() == slotStart && bid.blockType().equals(blockType);
    }
  }

  /** The file's content: the day and its bids, in the order made. */
  record Day(String day, List<OwnBid> bids) {}

  private final Path dir;

  /** The bids files in {@code dir} (SPOOL/market), made (mode 0700) if missing; a folder others may enter is refused. */
  public BidBook(Path dir) {
    this.dir = OwnerOnlyFolder.prepare(dir, "market's bids folder");
  }

  /** Where {@code day}'s bids are kept. */
  Path file(LocalDate day) {
    return dir.resolve(day + SUFFIX);
  }

  /** {@code day}'s bids, or nothing if none were made (or the day has cleared); a file that cannot be read is an error naming it. */
  public Optional<List<OwnBid>> read(LocalDate day) {
    Path file = file(day);
    try {
      if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
        return Optional.empty();
      }
      if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS) || Files.size(file) > MAX_BYTES) {
        throw new IllegalStateException(file + " is not a file of at most " + MAX_BYTES + " bytes; it holds the nonces of this site's bids for "
            + day + ": restore it from a backup, or remove it to give up that day's bids");
      }
      Day read = JSON.readValue(Files.readAllBytes(file), Day.class);
      if (!day.toString().equals(read.day()) || read.bids() == null) {
        throw new IllegalStateException(file + " holds the bids of " + read.day() + ", not of " + day + "; move it back where it came from");
      }
      return Optional.of(List.copyOf(read.bids()));
    } catch (JacksonException e) { // a bid or nonce out of bounds is one too: the records' constructors refuse them
      throw new IllegalStateException(file + " is not a bids file (" + e.getOriginalMessage() + "); it holds the nonces of this site's bids"
          + " for " + day + ": restore it from a backup, or remove it to give up that day's bids", e);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
    }
  }

  /** Replaces {@code day}'s bids with {@code bids}, whole or not at all. */
  public void write(LocalDate day, List<OwnBid> bids) {
    try {
      OwnerOnlyFolder.writeAtomically(dir, day + SUFFIX, JSON.writeValueAsBytes(new Day(day.toString(), new ArrayList<>(bids))));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file(day) + ": " + e.getMessage(), e);
    }
  }

  /** Forgets {@code day}'s bids once the day has cleared: the nonces are secret no longer, and needed no more. */
  public void forget(LocalDate day) {
    try {
      if (Files.deleteIfExists(file(day))) {
        OwnerOnlyFolder.force(dir);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot remove " + file(day) + ": " + e.getMessage(), e);
    }
  }
}
