package org.coalition.policy.shapley;

/**
 * A game on n players: the value of every coalition, indexed by bit mask (bit i set = player i
 * is in). The empty coalition is worth 0.
 */
public final class CoalitionGame {
  /** Shapley values are exact and cost O(n 2^n); 20 players already mean 20 million terms. */
  public static final int MAX_PLAYERS = 20;

  private final int players;
  private final double[] values;

  private CoalitionGame(int players, double[] values) {
    this.players = players;
    this.values = values;
  }

  /**
   * @param values {@code values[mask]} for every mask in {@code [0, 2^n)}; {@code values[0]} must be 0
   */
  public static CoalitionGame of(int players, double[] values) {
    if (players < 1 || players > MAX_PLAYERS) {
      throw new IllegalArgumentException("a game needs 1 to " + MAX_PLAYERS + " players, got " + players);
    }
    if (values.length != 1 << players) {
      throw new IllegalArgumentException(
          "a game of " + players + " players needs " + (1 << players) + " coalition values, got " + values.length);
    }
    if (values[0] != 0) {
      throw new IllegalArgumentException("the empty coalition must be worth 0, was " + values[0]);
    }
    for (int mask = 0; mask < values.length; mask++) {
      if (!Double.isFinite(values[mask])) {
        throw new IllegalArgumentException("coalition " + mask + " has no finite value: " + values[mask]);
      }
    }
    return new CoalitionGame(players, values.clone());
  }

  public int players() {
    return players;
  }

  public double value(int mask) {
    return values[mask];
  }

  /** The grand coalition's mask. */
  public int all() {
    return (1 << players) - 1;
  }
}
