package org.coalition.daemon.market;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.coalition.handler.Escrow;
import org.coalition.handler.HandlerException;
import org.coalition.handler.HandlerException.Category;

/** A hand-written escrow for the desk's unit tests: reservations in a map, what was asked of it in order, and a switch that refuses holds. */
final class FakeEscrow implements Escrow {
  final Map<String, Held> held = new TreeMap<>();
  final List<String> calls = new ArrayList<>();
  boolean refuseHolds;

  @Override
  public synchronized Held hold(String name, Instant start, Instant end, String partition, int nodes, int coresPerNode) {
    calls.add("hold " + name + " " + partition + " " + nodes + "x" + coresPerNode);
    if (refuseHolds) {
      throw new HandlerException(Category.REJECTED, "Requested nodes are busy");
    }
    return held.computeIfAbsent(name, n -> new Held(n, start, end, List.of("coalition")));
  }

  @Override
  public synchronized Held handOver(String name, String account) {
    calls.add("hand " + name + " to " + account);
    Held h = Optional.ofNullable(held.get(name)).orElseThrow(() -> new HandlerException(Category.NOT_FOUND, "no reservation " + name));
    Held handed = new Held(name, h.start(), h.end(), List.of(account));
    held.put(name, handed);
    return handed;
  }

  @Override
  public synchronized Optional<Held> find(String name) {
    return Optional.ofNullable(held.get(name));
  }

  @Override
  public synchronized boolean release(String name) {
    calls.add("release " + name);
    return held.remove(name) != null;
  }
}
