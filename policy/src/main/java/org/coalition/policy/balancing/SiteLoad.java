package org.coalition.policy.balancing;

import java.util.Objects;

/**
 * One site's input to a balancing period: its queue length {@code load} (work waiting, in the
 * same unit as jobs' lengths) and its declared participation level {@code participation}.
 */
public record SiteLoad(String site, double load, double participation) {
  public SiteLoad {
    Objects.requireNonNull(site, "site");
    if (!(load >= 0) || Double.isInfinite(load)) {
      throw new IllegalArgumentException("site " + site + ": load must be finite and >= 0, was " + load);
    }
    if (!(participation >= 0)) {
      throw new IllegalArgumentException("site " + site + ": participation level must be >= 0, was " + participation);
    }
  }
}
