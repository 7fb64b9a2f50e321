package org.coalition.zookeeper.policy;

import java.nio.charset.StandardCharsets;

/**
 * Which certificates of a member the servers no longer take. A certificate stays valid until it
 * expires (825 days), so the operator's removal of a site and the rotation of its key are
 * enforced here: the node {@code /coalition/FED/revoked/SITE} (the operator's, members read it)
 * holds a cutoff, and a certificate of SITE issued before it ({@code notBefore} earlier than the
 * cutoff) is refused, at authentication and on every request of a session already open. No node:
 * nothing revoked. A rotation sets the cutoff to the new certificate's {@code notBefore}, so the
 * new one passes and every older one fails, from a time of the operator's choosing (the overlap
 * in which the site installs its new key); a removal sets it to "always", so no certificate of
 * SITE is ever taken again unless the operator adds SITE anew.
 *
 * <p>The node's data: {@code CUTOFF_MILLIS} or {@code CUTOFF_MILLIS FROM_MILLIS}, decimal, with
 * {@link Long#MAX_VALUE} as the cutoff for "every certificate". Data that does not parse refuses
 * every certificate of the site (the node is written only by the operator; failing closed is the
 * safe reading of a mistake).
 */
public final class Revocations {
  /** The branch under the federation's root. */
  public static final String BRANCH = "revoked";
  /** The cutoff of a removed site: every certificate of it refused. */
  public static final long ALWAYS = Long.MAX_VALUE;
  private static final int MAX_BYTES = 64;

  private Revocations() {}

  /** The node that holds {@code site}'s cutoff. */
  public static String path(Identity site) {
    return "/coalition/" + site.federation() + "/" + BRANCH + "/" + site.name();
  }

  /** The data of a cutoff that applies from {@code fromMillis} on (0: at once). */
  public static byte[] encode(long cutoffMillis, long fromMillis) {
    if (cutoffMillis < 0 || fromMillis < 0) {
      throw new IllegalArgumentException("a cutoff and its start are times since 1970, not negative");
    }
    return (fromMillis == 0 ? Long.toString(cutoffMillis) : cutoffMillis + " " + fromMillis).getBytes(StandardCharsets.US_ASCII);
  }

  /**
   * Whether a certificate issued at {@code issuedMillis} (its {@code notBefore}) is refused by the
   * cutoff {@code data} (the node's data; null: no node) at {@code nowMillis}.
   */
  public static boolean revoked(byte[] data, long issuedMillis, long nowMillis) {
    if (data == null) {
      return false;
    }
    long[] cutoff = decode(data);
    if (cutoff == null) {
      return true;
    }
    if (nowMillis < cutoff[1]) {
      return false;
    }
    return cutoff[0] == ALWAYS || issuedMillis < cutoff[0];
  }

  /** {cutoff, from}, or null when {@code data} is not a cutoff. */
  static long[] decode(byte[] data) {
    if (data.length == 0 || data.length > MAX_BYTES) {
      return null;
    }
    String[] words = new String(data, StandardCharsets.US_ASCII).strip().split(" ");
    if (words.length > 2) {
      return null;
    }
    try {
      long cutoff = Long.parseLong(words[0]);
      long from = words.length == 2 ? Long.parseLong(words[1]) : 0;
      return cutoff < 0 || from < 0 ? null : new long[] {cutoff, from};
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
