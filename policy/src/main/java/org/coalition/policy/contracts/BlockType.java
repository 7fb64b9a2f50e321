package org.coalition.policy.contracts;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A block type's name says what it is, so every member reads the same good from it: whole nodes
 * of one partition and flavour, {@code PARTITION.cpuCxN[.FLAVOUR]}, N nodes of C cores each
 * ({@code batch.cpu16x2}: two 16-core nodes of partition {@code batch}; {@code gpu.cpu32x1.a100}).
 * The market needs the block's cores to bound its value (a block is worth at most its
 * core-seconds in the slot; {@link DayAheadMarket}'s thin-market rule).
 */
public final class BlockType {
  static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9_-]{0,31}\\.cpu([1-9][0-9]{0,5})x([1-9][0-9]{0,4})(\\.[a-z0-9_-]{1,16})?");
  /** The most cores a block may hold, as {@link SealedBid#MAX_PRICE} assumes. */
  public static final int MAX_CORES = 100_000;

  private BlockType() {}

  /** Why {@code name} is not a block type, or null. */
  public static String problem(String name) {
    if (name == null || !NAME.matcher(name).matches()) {
      return "a block type is PARTITION.cpuCxN[.FLAVOUR] (N nodes of C cores; batch.cpu16x2), was " + name;
    }
    return cores(name) > MAX_CORES ? "block type " + name + " holds more than " + MAX_CORES + " cores" : null;
  }

  /** The cores of a block of type {@code name}: C x N; IllegalArgumentException if it is not a block type. */
  public static long cores(String name) {
    Matcher m = parse(name);
    return Long.parseLong(m.group(1)) * Long.parseLong(m.group(2));
  }

  /** The partition whose nodes a block of type {@code name} holds. */
  public static String partition(String name) {
    String type = parse(name).group();
    return type.substring(0, type.indexOf('.'));
  }

  /** How many whole nodes a block of type {@code name} holds: N. */
  public static int nodes(String name) {
    return Integer.parseInt(parse(name).group(2));
  }

  /** The cores of each node of a block of type {@code name}: C. */
  public static int coresPerNode(String name) {
    return Integer.parseInt(parse(name).group(1));
  }

  private static Matcher parse(String name) {
    Matcher m = name == null ? null : NAME.matcher(name);
    if (m == null || !m.matches()) {
      throw new IllegalArgumentException("a block type is PARTITION.cpuCxN[.FLAVOUR] (N nodes of C cores; batch.cpu16x2), was " + name);
    }
    return m;
  }
}
