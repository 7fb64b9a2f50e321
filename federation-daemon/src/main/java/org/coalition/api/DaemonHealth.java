package org.coalition.api;

import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** What the API reports about the daemon's connections: its ZooKeeper session and its batch system. */
public interface DaemonHealth {
  boolean zookeeperConnected();

  String handler();

  /** The health of a daemon whose session says {@code connected} and whose batch system {@code describes} itself. */
  static DaemonHealth of(BooleanSupplier connected, Supplier<String> describes) {
    return new DaemonHealth() {
      @Override
      public boolean zookeeperConnected() {
        return connected.getAsBoolean();
      }

      @Override
      public String handler() {
        return describes.get();
      }
    };
  }
}
