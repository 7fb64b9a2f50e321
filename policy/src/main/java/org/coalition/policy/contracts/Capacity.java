package org.coalition.policy.contracts;

import java.util.Objects;

/** Capacity a site can place work on this slot: its own cores, or a won contract, at a unit cost. */
public record Capacity(String name, boolean local, double cores, double unitCost) {
  public Capacity {
    Objects.requireNonNull(name, "name");
    if (!(cores >= 0) || !(unitCost >= 0)) {
      throw new IllegalArgumentException(name + ": cores and unit cost must be >= 0, were " + cores + ", " + unitCost);
    }
  }
}
