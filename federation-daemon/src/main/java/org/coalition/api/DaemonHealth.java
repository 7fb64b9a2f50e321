package org.coalition.api;

/** What the API reports about the daemon's connections: its ZooKeeper session and its batch system. */
public interface DaemonHealth {
  boolean zookeeperConnected();

  String handler();
}
