package org.coalition.coordination;

/** A federation job's identity: its home site and its id there. */
public record JobRef(String home, String jobId) {
  public JobRef {
    JobSpec.requireId("home site", home);
    JobSpec.requireId("job id", jobId);
  }

  @Override
  public String toString() {
    return home + "/" + jobId;
  }
}
