package org.coalition.coordination;

/**
 * A site's exclusive right to run one job. {@code token} is the fencing token: it names this
 * claim and no other (ZooKeeper: the claim node's creation zxid, unique and increasing), and
 * every start, heartbeat and result must carry it. Once the claim is lost (its holder's session
 * ended and the home site put the job back), the token is stale and is refused.
 */
public record Claim(JobSpec job, String executor, long token) {
  public JobRef ref() {
    return job.ref();
  }
}
