package org.coalition.coordination.zookeeper;

/**
 * The hard limits the servers hold each member to in its jobs folder, the one place a member makes
 * nodes: at most {@code nodes} nodes (the folder, its jobs, their claims and results) and
 * {@code bytes} bytes of their data. The operator sets them at {@code federation create} and
 * {@code add}; ZooKeeper enforces them ({@link ZkQuotas}). A home publishes only as many jobs as
 * leave each room for its claim and result ({@link #fits}), so its jobs can always be claimed.
 */
public record MemberQuota(long nodes, long bytes) {
  /** A job's own node, its claim and its result. */
  static final int NODES_PER_JOB = 3;
  /**
   * What a home keeps for each published job's claim and result, which its peers write: an honest
   * claim takes about 100 bytes, a result at most about 2.5 KB (its output reference is 2,048
   * characters at most).
   */
  static final long BYTES_KEPT_PER_JOB = 4 * 1024;
  /** The fewest nodes a quota may allow: the folder and one job with its claim and result. */
  public static final long MIN_NODES = 1 + NODES_PER_JOB;
  /** The fewest bytes: one job of the largest record a reader takes, and the room kept for its claim and result. */
  public static final long MIN_BYTES = ZkRecords.MAX_NODE_BYTES + BYTES_KEPT_PER_JOB;
  /**
   * 10,000 nodes and 16 MiB a member: 3,333 jobs published at once with room for their claims and
   * results, and ten members' worst within the 256 MiB heap of the package's servers.
   */
  public static final MemberQuota DEFAULT = new MemberQuota(10_000, 16L << 20);

  public MemberQuota {
    if (nodes < MIN_NODES || bytes < MIN_BYTES) {
      throw new IllegalArgumentException("a member's quota needs at least " + MIN_NODES + " nodes and " + MIN_BYTES
          + " bytes (one job of the largest record with its claim and result), not " + nodes + " nodes and " + bytes + " bytes");
    }
  }

  /**
   * Whether {@code batch} more jobs (their records {@code batchBytes} bytes together) fit beside
   * {@code published} jobs already in the folder, whose nodes hold {@code bytesNow} bytes: each job
   * keeps room for its claim and result.
   */
  boolean fits(int published, long bytesNow, int batch, long batchBytes) {
    long jobs = (long) published + batch;
    return 1 + jobs * NODES_PER_JOB <= nodes && bytesNow + batchBytes + jobs * BYTES_KEPT_PER_JOB <= bytes;
  }

  /** What an operator reads: "10000 nodes, 16 MiB". */
  @Override
  public String toString() {
    return nodes + " nodes, " + (bytes % (1L << 20) == 0 ? (bytes >> 20) + " MiB" : bytes + " bytes");
  }
}
