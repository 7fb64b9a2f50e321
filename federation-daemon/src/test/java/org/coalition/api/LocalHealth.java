package org.coalition.api;

/** The health a test daemon reports: ZooKeeper connected, a local test site. */
final class LocalHealth implements DaemonHealth {
  static final LocalHealth INSTANCE = new LocalHealth();

  private LocalHealth() {}

  @Override
  public boolean zookeeperConnected() {
    return true;
  }

  @Override
  public String handler() {
    return "local test site";
  }
}
