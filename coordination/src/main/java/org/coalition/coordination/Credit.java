package org.coalition.coordination;

/** What one home has accepted from one executor: the utilities of those runs and how many there were. */
public record Credit(UtilitySums sums, long jobs) {
  public static final Credit NONE = new Credit(UtilitySums.ZERO, 0);

  public Credit {
    if (sums == null || jobs < 0) {
      throw new IllegalArgumentException("a credit needs its sums and a job count of 0 or more, was " + jobs);
    }
  }

  public Credit plus(UtilitySums run) {
    return new Credit(sums.plus(run), jobs + 1);
  }

  public Credit plus(Credit other) {
    return new Credit(sums.plus(other.sums), jobs + other.jobs);
  }
}
