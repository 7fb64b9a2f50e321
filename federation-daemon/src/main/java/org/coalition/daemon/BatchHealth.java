package org.coalition.daemon;

import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import org.coalition.policy.text.Numbers;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether the local batch system answers, and since when: the age of the last good observation
 * for the metrics and the readiness check, and one log line when it stops answering, one when it
 * is back (with how long it was gone), and a reminder every {@link #REMIND} in between, rather
 * than a warning every round.
 */
public final class BatchHealth {
  private static final Logger LOG = LoggerFactory.getLogger(BatchHealth.class);
  /** How often an outage is logged again while it lasts. */
  static final Duration REMIND = Duration.ofMinutes(5);

  private final String site;
  private final Clock clock;
  private long lastGoodMillis = -1;
  private long downSinceMillis = -1;
  private long remindedMillis;
  private String lastError = "";

  BatchHealth(String site, Clock clock) {
    this.site = site;
    this.clock = clock;
  }

  /** An observation succeeded. */
  synchronized void observed() {
    long now = clock.millis();
    if (downSinceMillis >= 0) {
      LOG.info("site {}: the batch system answers again after {} s", site, Numbers.format((now - downSinceMillis) / 1000.0));
      downSinceMillis = -1;
    }
    lastGoodMillis = now;
  }

  /** An observation failed with {@code reason}. */
  synchronized void failed(String reason) {
    long now = clock.millis();
    lastError = reason;
    if (downSinceMillis < 0) {
      downSinceMillis = now;
      remindedMillis = now;
      LOG.warn("site {}: cannot observe the batch system ({}); no pilots are submitted and no jobs published until it answers; retrying every"
          + " round", site, reason);
    } else if (now - remindedMillis >= REMIND.toMillis()) {
      remindedMillis = now;
      LOG.warn("site {}: the batch system has not answered for {} s ({})", site, Numbers.format((now - downSinceMillis) / 1000.0), reason);
    }
  }

  /** Whether the last observation succeeded. */
  public synchronized boolean up() {
    return lastGoodMillis >= 0 && downSinceMillis < 0;
  }

  /** How long ago the last good observation was; empty before the first. */
  public synchronized Optional<Duration> age() {
    return lastGoodMillis < 0 ? Optional.empty() : Optional.of(Duration.ofMillis(clock.millis() - lastGoodMillis));
  }

  /** Why the last observation failed, while it is down; empty while it answers. */
  public synchronized Optional<String> problem() {
    return downSinceMillis < 0 ? Optional.empty() : Optional.of(lastError);
  }
}
