package org.coalition.simulator.cloudshare;

/** The CloudShare paper's three ways to turn one log into a federation (Section 5.1). */
public enum Scenario {
  /** Equal cores per site; users mapped to sites at random. */
  EQUAL_CORES(1),
  /** Cores across sites follow Zipf's law (site k has weight 1/k); users mapped at random. */
  ZIPF_CORES(2),
  /** Equal cores; half the users (at random) are local to their site and form its background load. */
  BACKGROUND(3);

  private final int number;

  Scenario(int number) {
    this.number = number;
  }

  /** The paper's number, 1 to 3. */
  public int number() {
    return number;
  }

  /** The scenario with the paper's number. */
  public static Scenario of(int number) {
    for (Scenario s : values()) {
      if (s.number == number) {
        return s;
      }
    }
    throw new IllegalArgumentException("--scenario must be 1, 2 or 3, was " + number);
  }

  /** Each site's cores out of {@code total}: an equal split, or Zipf weights 1/k (at least one each). */
  public int[] cores(int total, int sites) {
    if (sites < 1 || total < sites) {
      throw new IllegalArgumentException("cannot give " + sites + " sites at least one core each out of " + total);
    }
    int[] cores = new int[sites];
    if (this == ZIPF_CORES) {
      double harmonic = 0;
      for (int k = 1; k <= sites; k++) {
        harmonic += 1.0 / k;
      }
      for (int k = 1; k <= sites; k++) {
        cores[k - 1] = (int) Math.max(1, Math.round(total / (k * harmonic)));
      }
    } else {
      for (int i = 0; i < sites; i++) {
        cores[i] = total / sites + (i < total % sites ? 1 : 0);
      }
    }
    return cores;
  }
}
