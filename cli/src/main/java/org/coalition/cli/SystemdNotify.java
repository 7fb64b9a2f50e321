package org.coalition.cli;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
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
 * on SIGTERM, and a STATUS line. It runs {@code systemd-notify --pid=PID}: the JVM has no
 * datagram Unix sockets, and the unit says {@code NotifyAccess=all} so that systemd takes the
 * message from the helper. Outside systemd every call does nothing.
 */
final class SystemdNotify {
  private static final Logger LOG = LoggerFactory.getLogger(SystemdNotify.class);

  private final boolean enabled;
  private final Optional<Duration> watchdog;
  private ScheduledExecutorService pinger;

  private SystemdNotify(boolean enabled, Optional<Duration> watchdog) {
    this.enabled = enabled;
    this.watchdog = watchdog;
  }

  /** From the process's environment: systemd sets {@code NOTIFY_SOCKET}, and {@code WATCHDOG_USEC} with {@code WatchdogSec=}. */
  static SystemdNotify fromEnvironment(Map<String, String> env) {
    boolean on = env.get("NOTIFY_SOCKET") != null && !env.get("NOTIFY_SOCKET").isEmpty();
    Optional<Duration> dog = Optional.empty();
    String usec = env.get("WATCHDOG_USEC");
    String pid = env.get("WATCHDOG_PID");
    if (on && usec != null && usec.matches("[0-9]{1,15}") && (pid == null || pid.equals(Long.toString(ProcessHandle.current().pid())))) {
      dog = Optional.of(Duration.ofNanos(Long.parseLong(usec) * 1000));
    }
    return new SystemdNotify(on, dog);
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
    send("--ready", "STATUS=" + status);
  }

  void watchdog() {
    send("WATCHDOG=1");
  }

  void stopping(String status) {
    send("STOPPING=1", "STATUS=" + status);
  }

  private void send(String... fields) {
    if (!enabled) {
      return;
    }
    List<String> command = new ArrayList<>(List.of("systemd-notify", "--pid=" + ProcessHandle.current().pid()));
    command.addAll(List.of(fields));
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
      if (!p.waitFor(5, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        LOG.warn("systemd-notify {} did not return within 5 s", String.join(" ", fields));
      } else if (p.exitValue() != 0) {
        LOG.warn("systemd-notify {} failed (exit {})", String.join(" ", fields), p.exitValue());
      }
    } catch (IOException e) {
      LOG.warn("cannot run systemd-notify ({}); is systemd installed?", e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
