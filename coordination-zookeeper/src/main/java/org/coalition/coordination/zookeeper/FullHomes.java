package org.coalition.coordination.zookeeper;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Homes whose jobs folder the servers found at its quota when this site tried to claim there (no
 * room for the claim), passed over for {@link #PAUSE}: a home that fills its quota with jobs and
 * junk would otherwise cost every executor a refused multi per job per wake-up. An honest home
 * keeps room for its jobs' claims ({@link MemberQuota#fits}) and is never found full.
 */
final class FullHomes {
  static final Duration PAUSE = Duration.ofSeconds(30);

  /** Until when (System.nanoTime) each home found full is passed over. */
  private final Map<String, Long> until = new ConcurrentHashMap<>();

  boolean passedOver(String home) {
    Long end = until.get(home);
    if (end == null) {
      return false;
    }
    if (System.nanoTime() - end < 0) {
      return true;
    }
    until.remove(home, end);
    return false;
  }

  void foundFull(String home) {
    until.put(home, System.nanoTime() + PAUSE.toNanos());
  }
}
