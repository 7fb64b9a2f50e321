package org.coalition.policy.contracts;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Commit and reveal for sealed bids in a tree every member reads. Before the gate a site writes
 * {@link #of} its bid and a nonce; after it, the bid and the nonce ({@link Reveal}). The nonce must
 * be 32 random bytes: prices are whole credit below {@link SealedBid#MAX_PRICE}, so a commitment
 * without a long nonce could be reversed by trying every price.
 */
public final class Commitment {
  /** Nonce length in bytes. */
  public static final int NONCE_BYTES = 32;
  private static final Pattern HEX_64 = Pattern.compile("[0-9a-f]{64}");
  private static final HexFormat HEX = HexFormat.of();

  private Commitment() {}

  /** The commitment, 64 lower-case hex digits, of {@code bid} with {@code nonce} (64 hex digits). */
  public static String of(SealedBid bid, String nonce) {
    requireHex64(nonce, "nonce of " + bid.site() + "'s bid");
    return sha256(bid.canonical() + nonce);
  }

  /** SHA-256 of {@code text} (UTF-8), as 64 lower-case hex digits. */
  static String sha256(String text) {
    try {
      return HEX.formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("this JVM has no SHA-256, which every Java SE has", e);
    }
  }

  /** Whether {@code text} has the form of a commitment or a nonce: 64 lower-case hex digits. */
  public static boolean isHex64(String text) {
    return text != null && HEX_64.matcher(text).matches();
  }

  static void requireHex64(String text, String what) {
    if (!isHex64(text)) {
      throw new IllegalArgumentException(what + " must be " + NONCE_BYTES + " bytes as 64 lower-case hex digits");
    }
  }

  /** A revealed bid and its nonce. */
  public record Reveal(SealedBid bid, String nonce) {
    public Reveal {
      Objects.requireNonNull(bid, "bid");
      requireHex64(nonce, "nonce of " + bid.site() + "'s bid");
    }

    /** Whether this reveal is the bid {@code commitment} sealed. */
    public boolean matches(String commitment) {
      return isHex64(commitment) && MessageDigest.isEqual(
          of(bid, nonce).getBytes(StandardCharsets.US_ASCII), commitment.getBytes(StandardCharsets.US_ASCII));
    }
  }
}
