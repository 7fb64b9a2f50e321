package org.coalition.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What the daemon reads of systemd's environment: whether to notify, and how often to ping the watchdog. */
class SystemdNotifyTest {
  private static final String PID = Long.toString(ProcessHandle.current().pid());

  @Test
  void outsideSystemdThereIsNothingToTellAndNoWatchdog() {
    assertEquals(Optional.empty(), SystemdNotify.fromEnvironment(Map.of()).watchdogEvery());
    assertEquals(Optional.empty(), SystemdNotify.fromEnvironment(Map.of("WATCHDOG_USEC", "90000000")).watchdogEvery(),
        "a watchdog with no notify socket cannot be fed");
  }

  @Test
  void theWatchdogIsFedTwicePerPeriodAndOnlyByTheProcessItWatches() {
    Map<String, String> unit = Map.of("NOTIFY_SOCKET", "/run/systemd/notify", "WATCHDOG_USEC", "90000000", "WATCHDOG_PID", PID);
    assertEquals(Optional.of(Duration.ofSeconds(45)), SystemdNotify.fromEnvironment(unit).watchdogEvery());
    assertEquals(Optional.empty(), SystemdNotify.fromEnvironment(Map.of("NOTIFY_SOCKET", "/run/systemd/notify", "WATCHDOG_USEC", "90000000",
        "WATCHDOG_PID", "1")).watchdogEvery(), "a watchdog meant for another process (a wrapper's) is not ours to feed");
    assertEquals(Optional.empty(), SystemdNotify.fromEnvironment(Map.of("NOTIFY_SOCKET", "/run/systemd/notify", "WATCHDOG_USEC", "soon"))
        .watchdogEvery());
  }
}
