package org.coalition.containers;

import java.util.ArrayList;
import java.util.List;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;

/**
 * Network faults between containers, made by the network itself: each side drops the other's
 * packets (iptables, in containers started with NET_ADMIN), so connections hang and time out as
 * they do when a link breaks, rather than fail at once. {@link #healAll()} removes every rule.
 */
final class Faults {
  private final Network network;
  private final List<GenericContainer<?>> touched = new ArrayList<>();

  Faults(Network network) {
    this.network = network;
  }

  /** No packet passes between {@code a} and {@code b} on the network, either way. */
  void cut(GenericContainer<?> a, GenericContainer<?> b) {
    drop(a, Engine.address(b, network));
    drop(b, Engine.address(a, network));
  }

  /** Every container of {@code side} is cut from every container of {@code other}. */
  void partition(List<GenericContainer<?>> side, List<GenericContainer<?>> other) {
    for (GenericContainer<?> a : side) {
      for (GenericContainer<?> b : other) {
        cut(a, b);
      }
    }
  }

  private void drop(GenericContainer<?> c, String peer) {
    Engine.exec(c, "root", "iptables", "-I", "INPUT", "-s", peer, "-j", "DROP");
    Engine.exec(c, "root", "iptables", "-I", "OUTPUT", "-d", peer, "-j", "DROP");
    touched.add(c);
  }

  void healAll() {
    for (GenericContainer<?> c : touched) {
      if (c.isRunning()) {
        Engine.exec(c, "root", "iptables", "-F");
      }
    }
    touched.clear();
  }
}
