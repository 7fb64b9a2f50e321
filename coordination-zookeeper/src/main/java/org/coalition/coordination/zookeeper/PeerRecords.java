package org.coalition.coordination.zookeeper;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Peers' records this daemon refused (unreadable, out of bounds, naming another node, a ledger row
 * that went back): each counted by kind for the metrics, and logged once per node and reason,
 * since a peer's garbage is read again every round and must not flood the log.
 */
final class PeerRecords {
  private static final Logger LOG = LoggerFactory.getLogger(PeerRecords.class);

  private final Map<String, AtomicLong> refused = new ConcurrentHashMap<>();
  private final Map<String, String> lastReason = new ConcurrentHashMap<>();

  /** A {@code record} at {@code path} not believed, for {@code reason}; counted and logged only when new for that node. */
  void refuse(String record, String path, String reason) {
    if (!reason.equals(lastReason.put(path, reason))) {
      refused.computeIfAbsent(record, r -> new AtomicLong()).incrementAndGet();
      LOG.warn("decision=refuse-peer-record record={} node={} reason={}", record, path, reason);
    }
  }

  /** The node at {@code path} was read fine: a new fault there is logged again. */
  void accepted(String path) {
    lastReason.remove(path);
  }

  /** How many refusals of each kind of record (each node and reason once). */
  Map<String, Long> counts() {
    Map<String, Long> out = new TreeMap<>();
    refused.forEach((record, n) -> out.put(record, n.get()));
    return out;
  }
}
