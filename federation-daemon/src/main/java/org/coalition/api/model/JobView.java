package org.coalition.api.model;

/**
 * Where one of this site's federated jobs is ({@code GET /v1/jobs/ID}); start, end, exit code and
 * signal once it ended ({@code signal} set when a signal ended the run, then {@code exitCode} is 0;
 * {@code timedOut} true when the executor stopped the run at its time limit, {@code outOfMemory}
 * true when the executor's batch system killed it for memory, each absent otherwise). A job kept
 * home for good has state {@code home} and {@code reason} says why (its inputs, its shape).
 */
public record JobView(String site, String id, String state, String executor, double release, Double start, Double end, Integer exitCode,
    Integer signal, Boolean timedOut, String reason, Boolean outOfMemory) {
  /** A job in the federation, or back from it. */
  public JobView(String site, String id, String state, String executor, double release, Double start, Double end, Integer exitCode,
      Integer signal, Boolean timedOut) {
    this(site, id, state, executor, release, start, end, exitCode, signal, timedOut, null, null);
  }
}
