package org.coalition.daemon.base;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
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

  /** How many of the latest decisions are kept for the dashboard ({@link #recent}). */
  public static final int KEPT = 200;

  /** One decision: when (ms since the epoch), what kind, about what, the reason's key and the words. */
  public record Decision(long millis, String kind, String subject, String reason, String detail) {}

  private final String site;
  private final Map<String, AtomicLong> counts = new ConcurrentHashMap<>();
  private final Deque<Decision> latest = new ArrayDeque<>();

  public Decisions(String site) {
    this.site = site;
  }

  /**
   * Logs one decision. {@code reason} is a short key (it labels the metric, e.g. {@code no-local-room});
   * {@code detail} says why in words, with the figures that decided.
   */
  public void record(String kind, String subject, String reason, String detail) {
    counts.computeIfAbsent(kind + " " + reason, k -> new AtomicLong()).incrementAndGet();
    synchronized (latest) {
      latest.addFirst(new Decision(System.currentTimeMillis(), kind, subject, reason, detail));
      if (latest.size() > KEPT) {
        latest.removeLast();
      }
    }
    LOG.info("site={} decision={} {} reason={} {}", site, kind, subject, reason, detail);
  }

  /** The latest decisions, newest first, at most {@link #KEPT}. */
  public List<Decision> recent() {
    synchronized (latest) {
      return List.copyOf(latest);
    }
  }

  /** Decisions so far by "kind reason". */
  public Map<String, Long> counts() {
    Map<String, Long> out = new TreeMap<>();
    counts.forEach((k, v) -> out.put(k, v.get()));
    return out;
  }
}
