package org.coalition.daemon;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every decision the broker makes, on one log line with its reason ({@code decision=publish
 * job=north/12 reason=...}), and counted by kind and reason for the metrics endpoint.
 */
public final class Decisions {
  private static final Logger LOG = LoggerFactory.getLogger("org.coalition.decisions");

  private final String site;
  private final Map<String, AtomicLong> counts = new ConcurrentHashMap<>();

  public Decisions(String site) {
    this.site = site;
  }

  /**
   * Logs one decision. {@code reason} is a short key (it labels the metric, e.g. {@code no-local-room});
   * {@code detail} says why in words, with the figures that decided.
   */
  public void record(String kind, String subject, String reason, String detail) {
    counts.computeIfAbsent(kind + " " + reason, k -> new AtomicLong()).incrementAndGet();
    LOG.info("site={} decision={} {} reason={} {}", site, kind, subject, reason, detail);
  }

  /** Decisions so far by "kind reason". */
  public Map<String, Long> counts() {
    Map<String, Long> out = new TreeMap<>();
    counts.forEach((k, v) -> out.put(k, v.get()));
    return out;
  }
}
