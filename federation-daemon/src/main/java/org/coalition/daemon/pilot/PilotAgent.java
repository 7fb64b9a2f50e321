package org.coalition.daemon.pilot;

import dev.failsafe.Failsafe;
import dev.failsafe.RetryPolicy;
import dev.failsafe.function.CheckedSupplier;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.function.DoubleSupplier;
import org.coalition.coordination.CoordinationException;
import org.coalition.daemon.base.BrokerSettings;
import org.coalition.daemon.pilot.PilotService.Assignment;
import org.coalition.daemon.pilot.PilotService.RunOutcome;
import org.coalition.handler.ExitStatus;
import org.coalition.handler.OomKills;
import org.coalition.handler.ScriptRunner;
import org.coalition.staging.AccountTar;
import org.coalition.staging.Checksums;
import org.coalition.staging.OutputPacker;
import org.coalition.staging.StagingRefused;
import org.coalition.staging.TarBundle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The inside of a pilot job: ask the daemon for work, run it as the mapped account, heartbeat,
 * report the end, and ask again; exit once the daemon has had no work for it for its idle time
 * ({@link #IDLE_EXIT}; none: at the first answer without work). One whose claim is lost kills its
 * run (another site will run the job) and exits. A daemon that does not answer (restarting, a network
 * blip, its disk full) is asked again, with backoff and jitter, for the grace time
 * ({@link #GRACE}); only a refusal, or the grace running out, costs the run.
 */
public final class PilotAgent {
  private static final Logger LOG = LoggerFactory.getLogger(PilotAgent.class);
  /** The pilot job's environment, set by the daemon that submits it: the pilot's id, its capability, the daemon's API. */
  public static final String ID = "COALITION_PILOT_ID";
  public static final String TOKEN = "COALITION_PILOT_TOKEN";
  public static final String DAEMON = "COALITION_DAEMON";
  /** How often the pilot heartbeats, in milliseconds (the site's {@code pilots.heartbeat}). */
  public static final String HEARTBEAT = "COALITION_HEARTBEAT_MS";
  /** How long the pilot rides out a daemon that does not answer, in milliseconds. */
  public static final String GRACE = "COALITION_GRACE_MS";
  /** How long the pilot keeps asking for work without getting any before it exits, in milliseconds (absent: it exits at once). */
  public static final String IDLE_EXIT = "COALITION_IDLE_EXIT_MS";
  public static final long DEFAULT_HEARTBEAT_MILLIS = 30_000;
  /** A pilot waiting for work asks at most this often (a daemon that does not hold the call open answers at once). */
  private static final long MIN_ASK_MILLIS = 100;
  /**
   * What a pilot whose environment names no grace (one submitted by a daemon of an earlier
   * release) rides out: about a site file's default (15 s of session, 60 s of restart grace, and a margin).
   */
  public static final long DEFAULT_GRACE_MILLIS = 120_000;

  /** How long a pilot that is being stopped waits for its run's thread to finish after killing the run. */
  private static final long STOPPING_JOIN_MILLIS = 2_000;
  private static final Runnable NOTHING = () -> { };

  private final PilotService service;
  private final String pilotId;
  /** The pilot's current capability: the one it started with, then the one handed over with its last job. */
  private String token;
  private final ScriptRunner runner;
  private final long heartbeatMillis;
  private final long graceMillis;
  private final long idleExitMillis;
  private final DoubleSupplier clock;
  /** Set once the pilot is being stopped ({@link #stop}). */
  private volatile boolean stopped;
  /** Kills the run under way and tidies after it ({@link #NOTHING} between runs). */
  private volatile Runnable current = NOTHING;

  /** A pilot that exits at the first answer without work. */
  public PilotAgent(PilotService service, String pilotId, String token, ScriptRunner runner, long heartbeatMillis, long graceMillis,
      DoubleSupplier clock) {
    this(service, pilotId, token, runner, heartbeatMillis, graceMillis, 0, clock);
  }

  public PilotAgent(PilotService service, String pilotId, String token, ScriptRunner runner, long heartbeatMillis, long graceMillis,
      long idleExitMillis, DoubleSupplier clock) {
    this.service = service;
    this.pilotId = pilotId;
    this.token = token;
    this.runner = runner;
    this.heartbeatMillis = heartbeatMillis;
    this.graceMillis = graceMillis;
    this.idleExitMillis = idleExitMillis;
    this.clock = clock;
  }

  /** The agent of a pilot the daemon submitted with {@code environment} (its {@link #ID}, {@link #TOKEN}, {@link #GRACE} and {@link #IDLE_EXIT}). */
  public static PilotAgent of(PilotService service, Map<String, String> environment, ScriptRunner runner, long heartbeatMillis,
      DoubleSupplier clock) {
    return new PilotAgent(service, environment.get(ID), environment.get(TOKEN), runner, heartbeatMillis,
        millis(environment, GRACE, DEFAULT_GRACE_MILLIS), millis(environment, IDLE_EXIT, 0), clock);
  }

  /** The environment of pilot {@code id}, submitted with {@code token} by a daemon with {@code settings}. */
  public static Map<String, String> environment(String id, String token, BrokerSettings settings) {
    Map<String, String> env = new LinkedHashMap<>(Map.of(ID, id, TOKEN, token, DAEMON, settings.endpoint(), HEARTBEAT,
        Long.toString(settings.heartbeat().toMillis()), GRACE, Long.toString(settings.pilotGrace().toMillis())));
    long idle = settings.reuse().idleExit().toMillis();
    if (idle > 0) {
      env.put(IDLE_EXIT, Long.toString(Math.max(100, idle)));
    }
    return env;
  }

  /** A duration in milliseconds from the pilot's environment (100 ms to about 11 days), or {@code fallback}. */
  public static long millis(Map<String, String> environment, String name, long fallback) {
    String v = environment.get(name);
    return v != null && v.matches("[0-9]{3,9}") ? Long.parseLong(v) : fallback;
  }

  /** Whether a failed call may be repeated: the daemon did not answer, or its store was unreachable for a moment. */
  static boolean transientFailure(Throwable t) {
    return t instanceof PilotService.Unavailable
        || t instanceof CoordinationException c && c.kind() == CoordinationException.Kind.UNAVAILABLE;
  }

  /** {@code call}, repeated while it fails transiently, for at most the grace time; the last failure is thrown. */
  private <T> T patiently(String what, CheckedSupplier<T> call) {
    RetryPolicy<T> retry = RetryPolicy.<T>builder()
        .handleIf(PilotAgent::transientFailure)
        .withBackoff(Duration.ofMillis(Math.min(1_000, Math.max(50, graceMillis / 100))), Duration.ofMillis(Math.max(100, graceMillis / 8)))
        .withJitter(0.25)
        .withMaxRetries(-1)
        .withMaxDuration(Duration.ofMillis(graceMillis))
        .onRetry(e -> LOG.warn("pilot {}: {} failed ({}); asking again, attempt {} ({} s of the {} s grace gone)", pilotId, what,
            e.getLastException().getMessage(), e.getAttemptCount() + 1, e.getElapsedTime().toSeconds(), graceMillis / 1000))
        .build();
    return Failsafe.with(retry).get(call);
  }

  /**
   * Runs jobs while the daemon hands them out; returns the pilot's own exit code (0: no more work;
   * 1: a run was lost or refused).
   */
  public int run() throws InterruptedException {
    int runs = 0;
    long idleSince = System.nanoTime();
    while (true) {
      if (stopped) {
        LOG.info("pilot {}: stopped by its batch system; exiting after {} jobs", pilotId, runs);
        return 0;
      }
      Optional<Assignment> work;
      long asking = System.nanoTime();
      try {
        work = service.work(pilotId, token);
      } catch (RuntimeException e) {
        if (!transientFailure(e)) {
          throw e;
        }
        // no job is held now: waiting would only hold the cores; the daemon submits another pilot when it can hand out work
        LOG.warn("pilot {}: the daemon cannot hand out work now ({}); exiting after {} jobs", pilotId, e.getMessage(), runs);
        return 0;
      }
      if (work.isEmpty()) {
        long idle = (System.nanoTime() - idleSince) / 1_000_000;
        if (idle >= idleExitMillis) {
          LOG.info("pilot {}: no work, exiting after {} jobs", pilotId, runs);
          return 0;
        }
        // the daemon held the call as long as it may: ask again until the idle time is over, at most ten times a second
        long answered = (System.nanoTime() - asking) / 1_000_000;
        Thread.sleep(Math.max(0, Math.min(MIN_ASK_MILLIS - answered, idleExitMillis - idle)));
        continue;
      }
      token = work.get().token(); // the one it had is void now
      runs++;
      int code = runOne(work.get());
      if (code != 0) {
        return code;
      }
      idleSince = System.nanoTime();
    }
  }

  /** Runs job {@code a} to its end and reports it; 0 when it was reported, 1 when the run was lost or refused. */
  private int runOne(Assignment a) throws InterruptedException {
    Optional<Path> inputs;
    try {
      inputs = inputs(a, token);
    } catch (RuntimeException e) {
      // the home did not answer for the whole grace, or sent something else: the claim lapses and the job is queued again
      LOG.error("pilot {}: the inputs of job {} could not be fetched ({}); giving the run up", pilotId, a.job(), e.getMessage());
      return 1;
    }
    double start = clock.getAsDouble();
    OptionalLong oomKills = OomKills.count(); // the memory cgroup the batch system put the pilot in, if any
    ScriptRunner.Run run;
    try {
      run = a.place().isEmpty() ? runner.start(a.job().replace('/', '-'), a.account(), a.script(), a.environment(),
          sandbox -> unpack(inputs, sandbox, a.inputs().bytes()))
          : runner.startIn(a.job().replace('/', '-'), a.account(), a.script(), a.environment(), Path.of(a.place()));
    } catch (RuntimeException e) {
      LOG.warn("pilot {}: job {} could not start: {}", pilotId, a.job(), e.getMessage());
      service.finish(pilotId, token, new RunOutcome(start, clock.getAsDouble(), 127, new byte[0],
          ("coalition: the job could not start at the executing site: " + e.getMessage() + "\n").getBytes(StandardCharsets.UTF_8)));
      return 0;
    }
    // Stopped by its batch system (an eviction, a preemption, a cancel, the time limit: SIGTERM to
    // the pilot's JVM), the pilot kills what is left of the run and deletes its folder before it
    // goes, and gives this thread a moment to finish what it was doing (a temporary file of its own).
    ScriptRunner.Run started = run;
    current = () -> tidy(started, inputs);
    Thread worker = Thread.currentThread();
    Thread stopping = new Thread(() -> {
      stop();
      try {
        worker.join(STOPPING_JOIN_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "pilot-stopping");
    try {
      try {
        Runtime.getRuntime().addShutdownHook(stopping);
      } catch (IllegalStateException jvmStopping) {
        // the JVM began to stop while the job started: no hook of this run will kill it, so the
        // finally below does (a served demo stopped by Ctrl-C left such a job running, seen in CI)
        stopped = true;
        LOG.warn("pilot {}: stopped as job {} started; the run is not reported", pilotId, a.job());
        return 1;
      }
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(a.walltimeSeconds());
      // the first heartbeat goes at once: it tells the daemon this pilot got its job (an answer lost on the way is told apart)
      boolean first = true;
      boolean timedOut = false;
      while (first || !run.process().waitFor(heartbeatMillis, TimeUnit.MILLISECONDS)) {
        first = false;
        boolean keep;
        try {
          keep = patiently("heartbeat", () -> service.heartbeat(pilotId, token));
        } catch (RuntimeException e) {
          LOG.warn("pilot {}: heartbeat failed ({}); killing job {}", pilotId, e.getMessage(), a.job());
          keep = false;
        }
        if (!keep || System.nanoTime() > deadline) {
          LOG.warn("pilot {}: {}; killing job {}", pilotId, keep ? "time limit reached" : "claim lost", a.job());
          timedOut = keep;
          run.stop(5);
          if (!keep) {
            return 1;
          }
        }
      }
      if (stopped) {
        // the run ended because the pilot is being stopped: it did not end by itself, and its end is no result
        LOG.warn("pilot {}: stopped by its batch system during job {}; the run is not reported, and the job goes back to the queue"
            + " once the batch system reports this pilot's end", pilotId, a.job());
        return 1;
      }
      ExitStatus status = run.exit();
      // a process of the run died for memory: the batch system's limit, as Slurm tells OUT_OF_MEMORY at home
      boolean outOfMemory = oomKills.isPresent() && OomKills.count().orElse(0) > oomKills.getAsLong();
      byte[] stderr = concat(run.stderr(), sendFiles(a, token, run));
      RunOutcome outcome = new RunOutcome(start, Math.max(start, clock.getAsDouble()), status.exitCode(), status.signal(), timedOut, run.stdout(),
          stderr, outOfMemory);
      try {
        patiently("the report of job " + a.job(), () -> {
          service.finish(pilotId, token, outcome);
          return null;
        });
      } catch (RuntimeException e) {
        LOG.error("pilot {}: the end of job {} could not be reported ({}); its home runs it again once the claim's lease runs out",
            pilotId, a.job(), e.getMessage());
        return 1;
      }
      return 0;
    } finally {
      current = NOTHING;
      try {
        Runtime.getRuntime().removeShutdownHook(stopping);
      } catch (IllegalStateException e) {
        // the JVM is stopping: the hook tidies too, and both may
      }
      tidy(run, inputs);
    }
  }

  /**
   * The pilot is being stopped (its JVM's shutdown hook: SIGTERM from the batch system): kills the
   * run under way, whose end is then not reported (a run cut short by the batch system is not the
   * job's result; the daemon releases the claim once it sees the pilot's end), and takes no more work.
   */
  void stop() {
    stopped = true;
    current.run();
  }

  /** Kills what is left of a run and deletes its folder and inputs (twice is harmless). */
  private static void tidy(ScriptRunner.Run run, Optional<Path> inputs) {
    run.kill();
    run.clean();
    inputs.ifPresent(AccountTar::deleteQuietly);
  }

  /** The job's inputs, fetched through the daemon (asked again while it cannot answer) and checked against the assignment. */
  private Optional<Path> inputs(Assignment a, String token) {
    if (!a.inputs().any()) {
      return Optional.empty();
    }
    Path file;
    try {
      file = Files.createTempFile("coalition-inputs-", ".tar");
    } catch (IOException e) {
      throw new UncheckedIOException("no room for the job's inputs: " + e.getMessage(), e);
    }
    try {
      patiently("the inputs of job " + a.job(), () -> {
        Files.deleteIfExists(file);
        service.inputs(pilotId, token, file);
        return null;
      });
      String sha = Checksums.sha256(file);
      if (Files.size(file) != a.inputs().bytes() || !sha.equals(a.inputs().sha256())) {
        throw new IllegalStateException("the inputs arrived as " + Files.size(file) + " bytes with SHA-256 " + sha + ", not as the job's record says");
      }
      return Optional.of(file);
    } catch (IOException | RuntimeException e) {
      AccountTar.deleteQuietly(file);
      throw e instanceof IOException io ? new UncheckedIOException(io) : (RuntimeException) e;
    }
  }

  private static void unpack(Optional<Path> inputs, Path sandbox, long bytes) throws IOException {
    if (inputs.isPresent()) {
      try (InputStream in = Files.newInputStream(inputs.get())) {
        TarBundle.unpack(in, sandbox, bytes);
      }
    }
  }

  /**
   * Hands the daemon the files the run created or changed in its sandbox (since it was handed
   * over: {@link ScriptRunner.Run#handedOver}), if the daemon takes files, the run had a sandbox and there are any; a note
   * for the job's standard error on what did not come back.
   */
  private byte[] sendFiles(Assignment a, String token, ScriptRunner.Run run) {
    if (a.maxFilesBytes() <= 0 || !a.place().isEmpty()) {
      return new byte[0]; // a run in place wrote where its home sees it
    }
    Path tar = null;
    StringBuilder note = new StringBuilder();
    try {
      tar = Files.createTempFile("coalition-files-", ".tar");
      Files.delete(tar);
      AccountTar.Packed packed = OutputPacker.pack(run.account(), run.sandbox(), run.handedOver(), tar, a.maxFilesBytes());
      packed.checked().leftOut().forEach(l -> note.append("coalition: not brought back: ").append(l).append('\n'));
      if (packed.checked().files() > 0) {
        Path file = tar;
        patiently("the files of job " + a.job(), () -> {
          service.files(pilotId, token, file, packed.sha256());
          return null;
        });
      }
    } catch (StagingRefused e) {
      note.append("coalition: the files this run wrote were not brought back: ").append(e.getMessage()).append('\n');
    } catch (IOException | RuntimeException e) {
      LOG.warn("pilot {}: the files of job {} could not be handed in: {}", pilotId, a.job(), e.getMessage());
      note.append("coalition: the files this run wrote could not be brought back: ").append(e.getMessage()).append('\n');
    } finally {
      if (tar != null) {
        AccountTar.deleteQuietly(tar);
      }
    }
    return note.toString().getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] concat(byte[] a, byte[] b) {
    if (b.length == 0) {
      return a;
    }
    byte[] all = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, all, a.length, b.length);
    return all;
  }
}
