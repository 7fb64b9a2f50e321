package org.coalition.daemon;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.DoubleSupplier;
import org.coalition.daemon.PilotService.Assignment;
import org.coalition.daemon.PilotService.RunOutcome;
import org.coalition.handler.ScriptRunner;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The inside of a pilot job: ask the daemon for work, run it as the mapped account, heartbeat,
 * report the end, exit. A pilot that gets no work exits at once; one whose claim is lost kills
 * its run (another site will run the job).
 */
public final class PilotAgent {
  private static final Logger LOG = LoggerFactory.getLogger(PilotAgent.class);
  /** The pilot job's environment, set by the daemon that submits it: the pilot's id, its capability, the daemon's API. */
  public static final String ID = "COALITION_PILOT_ID";
  public static final String TOKEN = "COALITION_PILOT_TOKEN";
  public static final String DAEMON = "COALITION_DAEMON";
  /** How often the pilot heartbeats, in milliseconds (the site's {@code pilots.heartbeat}). */
  public static final String HEARTBEAT = "COALITION_HEARTBEAT_MS";

  private final PilotService service;
  private final String pilotId;
  private final String token;
  private final ScriptRunner runner;
  private final long heartbeatMillis;
  private final DoubleSupplier clock;

  public PilotAgent(PilotService service, String pilotId, String token, ScriptRunner runner, long heartbeatMillis, DoubleSupplier clock) {
    this.service = service;
    this.pilotId = pilotId;
    this.token = token;
    this.runner = runner;
    this.heartbeatMillis = heartbeatMillis;
    this.clock = clock;
  }

  /** The agent of a pilot the daemon submitted with {@code environment} (its {@link #ID} and {@link #TOKEN}). */
  public static PilotAgent of(PilotService service, Map<String, String> environment, ScriptRunner runner, long heartbeatMillis,
      DoubleSupplier clock) {
    return new PilotAgent(service, environment.get(ID), environment.get(TOKEN), runner, heartbeatMillis, clock);
  }

  /** Runs at most one job; returns the pilot's own exit code (0: done or no work; 1: the run was lost or refused). */
  public int run() throws InterruptedException {
    Optional<Assignment> work = service.work(pilotId, token);
    if (work.isEmpty()) {
      LOG.info("pilot {}: no work, exiting", pilotId);
      return 0;
    }
    Assignment a = work.get();
    String token = a.token(); // the one in this process's environment is void now
    double start = clock.getAsDouble();
    ScriptRunner.Run run;
    try {
      run = runner.start(a.job().replace('/', '-'), a.account(), a.script());
    } catch (RuntimeException e) {
      LOG.warn("pilot {}: job {} could not start: {}", pilotId, a.job(), e.getMessage());
      service.finish(pilotId, token, new RunOutcome(start, clock.getAsDouble(), 127, new byte[0],
          ("coalition: the job could not start at the executing site: " + e.getMessage() + "\n").getBytes(StandardCharsets.UTF_8)));
      return 0;
    }
    try {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(a.walltimeSeconds());
      while (!run.process().waitFor(heartbeatMillis, TimeUnit.MILLISECONDS)) {
        boolean keep;
        try {
          keep = service.heartbeat(pilotId, token);
        } catch (RuntimeException e) {
          LOG.warn("pilot {}: heartbeat failed ({}); killing job {}", pilotId, e.getMessage(), a.job());
          keep = false;
        }
        if (!keep || System.nanoTime() > deadline) {
          LOG.warn("pilot {}: {}; killing job {}", pilotId, keep ? "time limit reached" : "claim lost", a.job());
          run.process().destroy();
          if (!run.process().waitFor(5, TimeUnit.SECONDS)) {
            run.process().destroyForcibly().waitFor();
          }
          if (!keep) {
            return 1;
          }
        }
      }
      int exit = run.process().exitValue();
      service.finish(pilotId, token, new RunOutcome(start, Math.max(start, clock.getAsDouble()), exit, run.stdout(), run.stderr()));
      return 0;
    } finally {
      if (run.process().isAlive()) {
        run.process().destroyForcibly();
      }
      run.clean();
    }
  }
}
