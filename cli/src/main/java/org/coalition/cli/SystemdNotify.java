package org.coalition.cli;

import com.sun.jna.LastErrorException;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells systemd how the daemon is doing when it runs as a {@code Type=notify} unit (its
 * {@code NOTIFY_SOCKET} is set): READY once it has joined, WATCHDOG while its rounds run, STOPPING
 * on SIGTERM, and a STATUS line, each a datagram this process sends itself ({@link NotifySocket}),
 * so the unit takes notifications from its main process only ({@code NotifyAccess=main}).
 * Outside systemd every call does nothing.
 */
final class SystemdNotify {
  private static final Logger LOG = LoggerFactory.getLogger(SystemdNotify.class);

  private final Optional<String> socket;
  private final Optional<Duration> watchdog;
  private ScheduledExecutorService pinger;

  private SystemdNotify(Optional<String> socket, Optional<Duration> watchdog) {
    this.socket = socket;
    this.watchdog = watchdog;
  }

  /** From the process's environment: systemd sets {@code NOTIFY_SOCKET}, and {@code WATCHDOG_USEC} with {@code WatchdogSec=}. */
  static SystemdNotify fromEnvironment(Map<String, String> env) {
    Optional<String> socket = Optional.ofNullable(env.get("NOTIFY_SOCKET")).filter(s -> !s.isEmpty());
    boolean on = socket.isPresent();
    Optional<Duration> dog = Optional.empty();
    String usec = env.get("WATCHDOG_USEC");
    String pid = env.get("WATCHDOG_PID");
    if (on && usec != null && usec.matches("[0-9]{1,15}") && (pid == null || pid.equals(Long.toString(ProcessHandle.current().pid())))) {
      dog = Optional.of(Duration.ofNanos(Long.parseLong(usec) * 1000));
    }
    return new SystemdNotify(socket, dog);
  }

  /** How often to send WATCHDOG=1 (half the unit's {@code WatchdogSec}); empty without a watchdog. */
  Optional<Duration> watchdogEvery() {
    return watchdog.map(d -> d.dividedBy(2));
  }

  /**
   * Sends WATCHDOG=1 every half of the unit's {@code WatchdogSec} while {@code alive} holds; a
   * daemon whose rounds hang stops sending and systemd restarts it. {@link #stopWatchdog} ends it.
   */
  synchronized void startWatchdog(BooleanSupplier alive) {
    if (watchdogEvery().isEmpty() || pinger != null) {
      return;
    }
    pinger = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "coalition-watchdog");
      t.setDaemon(true);
      return t;
    });
    pinger.scheduleAtFixedRate(() -> {
      if (alive.getAsBoolean()) {
        watchdog();
      } else {
        LOG.warn("the daemon's rounds have stalled: no watchdog ping, systemd will restart it");
      }
    }, 0, watchdogEvery().get().toMillis(), TimeUnit.MILLISECONDS);
  }

  synchronized void stopWatchdog() {
    if (pinger != null) {
      pinger.shutdownNow();
      pinger = null;
    }
  }

  void ready(String status) {
    send("READY=1", "STATUS=" + status);
  }

  void watchdog() {
    send("WATCHDOG=1");
  }

  void stopping(String status) {
    send("STOPPING=1", "STATUS=" + status);
  }

  private void send(String... fields) {
    if (socket.isEmpty()) {
      return;
    }
    try {
      NotifySocket.send(socket.get(), String.join("\n", fields));
    } catch (LastErrorException | IllegalArgumentException e) {
      LOG.warn("cannot tell systemd {} ({})", String.join(" ", fields), e.getMessage());
    }
  }
}
