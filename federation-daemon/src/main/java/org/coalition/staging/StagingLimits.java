package org.coalition.staging;

/**
 * How many bytes of files a job may take with it or bring back ({@code staging.max-job} in the
 * site file), and how many a site keeps at once for all jobs ({@code staging.max-site}).
 */
public record StagingLimits(long maxJobBytes, long maxSiteBytes) {
  /** 1 GiB per job, 10 GiB per site. */
  public static final StagingLimits DEFAULT = new StagingLimits(1L << 30, 10L << 30);
  /** No files at all: a site that serves no API (the one-machine demo) sends none. */
  public static final StagingLimits NONE = new StagingLimits(0, 0);
  /** Most entries (files and folders) a job's tar may hold. */
  public static final int MAX_ENTRIES = 100_000;

  public StagingLimits {
    if (maxJobBytes < 0 || maxSiteBytes < maxJobBytes) {
      throw new IllegalArgumentException("staging limits must have 0 <= max-job <= max-site, were " + maxJobBytes + " and " + maxSiteBytes);
    }
  }
}
