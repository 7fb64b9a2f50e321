package org.coalition.coordination;

/** A site's static facts, kept in its persistent membership record. */
public record SiteInfo(String site, String endpoint, int cores) {
  public SiteInfo {
    JobSpec.requireId("site", site);
    if (endpoint == null || endpoint.length() > 512) {
      throw new IllegalArgumentException("site " + site + ": endpoint must be at most 512 characters");
    }
    if (cores < 0) {
      throw new IllegalArgumentException("site " + site + ": cores must be >= 0, was " + cores);
    }
  }
}
