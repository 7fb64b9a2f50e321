package org.coalition.coordination;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One site's handle on the federation's shared state (DESIGN.md, "Coordination in ZooKeeper").
 * Two implementations pass the same contract tests: {@code zookeeper.ZkCoordination} (the real
 * one, Curator) and {@code memory.InMemoryCoordination} (for fast unit tests of the daemon).
 *
 * <p>Every write is conditional (a create that fails if the node exists, a delete that fails if
 * it has children, or a write at a known version): there is no read-then-write race. The life
 * of a federated job:
 *
 * <pre>
 *   home: publish ──► queue ──► executor: claim ──► start ──► heartbeat* ──► finish (result accepted once)
 *           │                      │                                              │
 *           └── withdraw (only while unclaimed; a withdrawal and a claim never both succeed)
 *                                  └── executor's session ends: home requeues ──► queue
 *   home: results() ──► act (release the user's job) ──► acknowledge (fold into the ledger)
 * </pre>
 *
 * Methods throw {@link CoordinationException}; its kind says whether to retry, drop or fix.
 */
public interface Coordination extends AutoCloseable {
  /** This handle's site. */
  String site();

  // --- membership --------------------------------------------------------------------------

  /** Records the site's static facts and announces it live with {@code status}. */
  void join(SiteInfo info, SiteStatus status);

  /** Replaces the live status (queue length, ratio, participation). */
  void updateStatus(SiteStatus status);

  /** Live sites and their statuses, by site id. */
  Map<String, SiteStatus> liveSites();

  /** Every site that ever joined (persistent records), live or not. */
  Map<String, SiteInfo> knownSites();

  // --- federation queue --------------------------------------------------------------------

  /** Most jobs one {@link #publish(List)} call takes (a ZooKeeper multi stays well under its 1 MB request bound). */
  int MAX_PUBLISH_BATCH = 10;

  /** Publishes one of this site's jobs; fails INVALID if it is another site's or already published. */
  default void publish(JobSpec job) {
    publish(List.of(job));
  }

  /**
   * Publishes up to {@link #MAX_PUBLISH_BATCH} of this site's jobs in one step, all or none:
   * fails INVALID, publishing none, if one is another site's, already published, or listed twice.
   */
  void publish(List<JobSpec> jobs);

  /** Withdraws an unclaimed job of this site; false if it was claimed (or already gone). */
  boolean withdraw(String jobId);

  /** Unclaimed jobs whose home is live, oldest release first. */
  List<JobSpec> queue();

  /**
   * The jobs {@code home} has in the federation (queued, claimed or finished, not yet
   * acknowledged), oldest release first. Any site may look: it is how the home site recovers after
   * a restart and how the API answers a job lookup.
   */
  List<FederatedJob> jobs(String home);

  /** Calls {@code listener} (on a coordination thread) whenever the queue may have changed. */
  void watchQueue(Runnable listener);

  // --- claims ------------------------------------------------------------------------------

  /** Claims a queued job for this site; empty if another site holds it, it was withdrawn, or its home is gone. */
  Optional<Claim> claim(JobRef job);

  /**
   * Called before the run starts: STALE if the claim was lost (do not start). A fenced check;
   * the start time itself travels in the {@link RunResult}.
   */
  void start(Claim claim, double startTime);

  /** Called while the run goes on: STALE if the claim was lost (kill the run). */
  void heartbeat(Claim claim);

  /**
   * Hands in the run's result. Accepted at most once per job, and only with the job's current
   * claim token: STALE otherwise. Calling it again after an ambiguous failure is safe.
   */
  void finish(Claim claim, RunResult result);

  /** Whether {@code claim} is still the job's claim (a site that comes back kills runs where it is not). */
  boolean holds(Claim claim);

  /** Gives a claim up without a result (the run could not start); the job goes back to the queue. */
  void release(Claim claim);

  // --- home side ---------------------------------------------------------------------------

  /**
   * Puts this site's jobs whose executor's session ended back in the queue, released now (event
   * 5). Returns how many. Called on membership changes and periodically.
   */
  int requeueLost();

  /**
   * Takes back a claim this site made under an earlier session (its daemon restarted): the claim
   * must still be this site's, with this token, and not given up. It is renewed under this
   * handle's session, which fences it anew; a late write of the old session is refused. Returns
   * true when held again; false when the run's result is in already (handed in just before the
   * restart: nothing to take back, and nothing lost). STALE otherwise: the home requeued it (after
   * its restart grace) and the run must go.
   */
  boolean adopt(Claim claim);

  /** Results accepted for this site's jobs, not yet acknowledged. */
  List<Completed> results();

  /**
   * Credits each result's executor in this home's ledger row and removes the jobs, in one atomic
   * write: a result is counted exactly once even if the site crashes around this call.
   * Returns how many were folded now (already acknowledged ones are skipped).
   */
  int acknowledge(List<Completed> done);

  /**
   * Refuses a result of this site's job that failed the home's checks (a peer's record is data,
   * never trusted): the result and its claim go and the job returns to the queue, released now,
   * in one step, so another site (or this one) runs it again. Nothing is folded. False if the
   * result changed meanwhile (already acknowledged or rejected).
   */
  boolean reject(Completed result, String reason);

  // --- ledger ------------------------------------------------------------------------------

  /**
   * Every member's ledger, by site id, as the homes credited it ({@link Ledgers}): contribution
   * is what homes accepted from a site, never what the site says of itself.
   */
  Map<String, SiteLedger> ledgers();

  /**
   * The homes' rows as this site believes them ({@link #ledgers} is made of them): by home, what
   * it credited each executor with, the work that flowed from the home to each executor.
   */
  Map<String, LedgerRow> ledgerRows();

  /**
   * How many of the peers' records this site refused, by kind of record (a job, a live status, a
   * ledger row...): unreadable, out of bounds, naming another node, or a ledger row that went back.
   * Each node and reason counts once. For the metrics.
   */
  default Map<String, Long> refusedPeerRecords() {
    return Map.of();
  }

  // --- leadership and balancing --------------------------------------------------------------

  /** Whether this handle currently leads the federation (runs the BILB period). */
  boolean isLeader();

  /** Publishes the allowances of a balancing period; only the leader may. */
  void publishAllowances(Allowances allowances);

  /** The allowances the current leader published last ({@link Allowances#NONE} if none yet). */
  Allowances allowances();

  /** Seconds since the federation's epoch, on this handle's clock. */
  double now();

  /** This site's handle on the day-ahead capacity market, judged by the federation's calendar (docs/decisions/0020-capacity-contracts.md). */
  Market market();

  /** Whether the store answers now (the daemon's health endpoint and metrics). */
  boolean connected();

  /**
   * Why the federation no longer takes this site, if it says so now: its operator removed the site
   * or revoked the key it connects with. Empty while it is taken, and when the store cannot tell
   * (not connected): a daemon told this stops, since every round would be refused.
   */
  default Optional<String> refusal() {
    return Optional.empty();
  }

  @Override
  void close();
}
