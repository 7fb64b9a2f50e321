package org.coalition.coordination;

/**
 * Where one published job stands, as a handle sees it: queued ({@code executor} empty), claimed
 * by {@code executor}, or finished there ({@code finished}: a result waits for its home).
 */
public record FederatedJob(JobSpec job, String executor, boolean finished) {
  public FederatedJob {
    if (executor == null) {
      throw new IllegalArgumentException("executor must be a site id or empty");
    }
  }

  public boolean claimed() {
    return !executor.isEmpty();
  }
}
