package org.coalition.slurm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.coalition.handler.HandlerException;
import org.coalition.handler.HandlerException.Category;
import org.coalition.handler.PilotHandle;
import org.coalition.handler.PilotSpec;
import org.coalition.handler.PilotState;
import org.coalition.handler.PilotStatus;
import org.coalition.handler.QueueObservation;
import org.coalition.job.JobLayout;
import org.coalition.testbed.Command;
import org.coalition.testbed.Eventually;
import org.coalition.testbed.Instance;
import org.coalition.testbed.Testbed;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The handler against the testbed's real Slurm 22.05 (REST v0.0.38) and 24.11 (v0.0.42): version
 * detection, observation of queue and nodes, a pilot's whole life, and the errors a site meets.
 */
@Tag("testbed") // needs testbed/up's systems: .ci/run runs it once they are up
class SlurmHandlerIT {
  /** How often a wait asks Slurm again. */
  static final Duration POLL = Duration.ofMillis(200);

  static SlurmConfig config(Instance slurm) {
    SlurmCredentials credentials = SlurmCredentials.key(slurm.path("jwt.key.file"), Duration.ofMinutes(10), Clock.systemUTC());
    return SlurmConfig.of(slurm.get("rest.url"), credentials, slurm.get("rest.user"));
  }

  /** The cluster of a test target: {@code slurm24-c1}, or {@code slurm24-c1@v0.0.40} for one REST version. */
  static Instance instance(String target) {
    return Testbed.require(target.split("@")[0]);
  }

  /** A handler for a test target, pinned to the version it names, if any. */
  static SlurmHandler connect(String target) {
    return SlurmHandler.connect(pinned(target, config(instance(target))));
  }

  static SlurmConfig pinned(String target, SlurmConfig config) {
    return target.contains("@") ? config.withVersion(target.split("@")[1]) : config;
  }

  /** Runs one of the instance's tools, which must succeed, and returns its standard output. */
  static String run(Instance slurm, String tool, String... args) {
    return Command.of(slurm.tool(tool), args).run().requireSuccess().stdout();
  }

  /** Cancels every job on the cluster, and waits until none is left. */
  static void emptyQueue(Instance slurm) {
    run(slurm, "scancel", "--user=root");
    run(slurm, "scancel", "--user=" + slurm.get("user"));
    Eventually.waitFor(() -> "jobs still queued on " + slurm.name(), Duration.ofSeconds(30), POLL,
        () -> run(slurm, "squeue", "-h", "-t", "PD,R,CG").isBlank());
  }

  static PilotSpec pilot(Instance slurm, String name, List<String> command, boolean held) {
    return new PilotSpec(name, slurm.get("user"), 2, 100, 120, slurm.get("partition"), command,
        Map.of("COALITION_TEST", "yes"), slurm.get("jobs.dir"), held);
  }

  static PilotStatus waitFor(SlurmHandler handler, PilotHandle pilot, PilotState wanted) {
    AtomicReference<PilotStatus> status = new AtomicReference<>();
    Eventually.waitFor(() -> pilot + " to reach " + wanted + "; last seen " + status.get(), Duration.ofSeconds(60), POLL,
        () -> status.updateAndGet(s -> handler.status(pilot)).state() == wanted);
    return status.get();
  }

  @ParameterizedTest
  @ValueSource(strings = {"slurm22-c1", "slurm24-c1"})
  void connectsWithTheNewestVersionBothSpeakOrThePinnedOne(String name) {
    Instance slurm = Testbed.require(name);
    try (SlurmHandler handler = SlurmHandler.connect(config(slurm))) {
      String expected = name.startsWith("slurm22") ? "v0.0.38" : "v0.0.42";
      assertEquals(expected, handler.version());
      assertTrue(handler.describe().contains(slurm.get("slurm.version")), handler.describe());
      System.out.printf("[slurm] %s: %s%n", name, handler.describe());
    }
    if (name.startsWith("slurm24")) {
      try (SlurmHandler pinned = SlurmHandler.connect(config(slurm).withVersion("v0.0.40"))) {
        assertEquals("v0.0.40", pinned.version());
      }
      HandlerException e = assertThrows(HandlerException.class, () -> SlurmHandler.connect(config(slurm).withVersion("v0.0.38")));
      assertEquals(Category.PROTOCOL, e.category(), e.getMessage());
      assertTrue(e.getMessage().contains("pinned"), e.getMessage());
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"slurm22-c1", "slurm24-c1", "slurm24-c1@v0.0.40"})
  void observesPendingWorkPerPartitionAndTheReservationRatio(String name) throws Exception {
    Instance slurm = instance(name);
    emptyQueue(slurm);
    try (SlurmHandler handler = connect(name)) {
      QueueObservation empty = handler.observe();
      assertEquals(0, empty.pendingJobs());
      assertEquals(Integer.parseInt(slurm.get("cpus")), empty.totalCores());
      assertEquals(0, empty.allocatedCores());
      // the node's shape (CPUs, and RealMemory=8000 in the testbed's slurm.conf) bounds what a pilot may ask
      int cpus = Integer.parseInt(slurm.get("cpus"));
      assertTrue(handler.canHold(cpus, 8000, JobLayout.ONE), "the node holds a pilot of all its CPUs and memory");
      assertFalse(handler.canHold(cpus, 8001, JobLayout.ONE), "no node has 8001 MiB");
      assertFalse(handler.canHold(cpus + 1, 0, JobLayout.ONE), "no node has " + (cpus + 1) + " CPUs");
      // and its GPUs (gres.conf: one on every cluster of the testbed but slurm22's c1), and it is one node
      int gpus = Integer.parseInt(slurm.get("gpus"));
      assertEquals(gpus > 0, handler.canHold(1, 0, JobLayout.oneNode(Map.of("gpu", 1))), "a GPU where the node has " + gpus);
      assertFalse(handler.canHold(1, 0, JobLayout.oneNode(Map.of("gpu", gpus + 1))), "no node has " + (gpus + 1) + " GPUs");
      assertFalse(handler.canHold(2, 0, new JobLayout(2, 2, Map.of())), "one node only");
      for (int i = 0; i < 5; i++) {
        run(slurm, "sbatch", "-H", "-p", slurm.get("partition"), "-c", "3", "-t", "7", "-o", "/dev/null", "--wrap", "sleep 60");
      }
      run(slurm, "sbatch", "-p", slurm.get("partition"), "-c", "2", "-t", "5", "-o", "/dev/null", "--wrap", "sleep 60");
      AtomicReference<QueueObservation> seen = new AtomicReference<>();
      Eventually.waitFor(() -> "5 pending and the running job in the nodes' allocation; last seen " + seen.get(), Duration.ofSeconds(30), POLL,
          () -> seen.updateAndGet(x -> handler.observe()).allocatedCores() == 2 && seen.get().pendingJobs() == 5);
      QueueObservation o = seen.get();
      assertEquals(5, o.pendingJobs(), o.toString());
      assertEquals(5 * 3 * 7 * 60.0, o.pendingCoreSeconds(), 1e-9);
      assertEquals(1, o.partitions().size());
      assertEquals(slurm.get("partition"), o.partitions().get(0).partition());
      assertEquals(2.0 / 8, o.reservationRatio(), 1e-9);
      // Cancelling one held job shows at the next observation.
      String held = run(slurm, "squeue", "-h", "-t", "PD", "-o", "%i").lines().findFirst().orElseThrow().trim();
      run(slurm, "scancel", held);
      Eventually.waitFor(() -> "the cancelled job to leave the observation; last seen " + seen.get(), Duration.ofSeconds(30), POLL,
          () -> seen.updateAndGet(x -> handler.observe()).pendingJobs() == 4);
      o = seen.get();
      System.out.printf("[slurm] %s observation: %d pending, %.0f core-s, ratio %.2f, %d requests, %d bytes%n", name, o.pendingJobs(),
          o.pendingCoreSeconds(), o.reservationRatio(), o.cost().requests(), o.cost().bytes());
    } finally {
      emptyQueue(slurm);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"slurm22-c1", "slurm24-c1", "slurm24-c1@v0.0.40"})
  void aPilotIsSubmittedHeldReleasedAndFollowedToItsExitCodeAsTheMappedUser(String name) throws Exception {
    Instance slurm = instance(name);
    Path out = Path.of(slurm.get("jobs.dir"), "pilot-" + System.nanoTime() + ".out");
    try (SlurmHandler handler = connect(name)) {
      PilotSpec spec = pilot(slurm, "pilot-roundtrip", List.of("/bin/sh", "-c", "id -un > '" + out + "'; echo \"$COALITION_TEST\" >> '" + out
          + "'; exit 3"), true);
      PilotHandle pilot = handler.submit(spec);
      assertEquals(PilotState.HELD, waitFor(handler, pilot, PilotState.HELD).state());
      String shown = run(slurm, "scontrol", "show", "job", pilot.nativeId());
      assertTrue(shown.contains("NumCPUs=2") && shown.contains("TimeLimit=00:02:00"), shown);
      handler.release(pilot);
      PilotStatus done = waitFor(handler, pilot, PilotState.FAILED);
      assertEquals(3, done.exitCode().orElseThrow(), done.toString());
      assertEquals(List.of(slurm.get("user"), "yes"), Files.readAllLines(out));
      PilotHandle ok = handler.submit(pilot(slurm, "pilot-ok", List.of("/bin/true"), false));
      PilotStatus completed = waitFor(handler, ok, PilotState.COMPLETED);
      assertEquals(0, completed.exitCode().orElseThrow());
      Map<PilotHandle, PilotStatus> both = handler.statuses(List.of(pilot, ok, new PilotHandle("slurm", "999999")));
      assertEquals(PilotState.FAILED, both.get(pilot).state());
      assertEquals(PilotState.COMPLETED, both.get(ok).state());
      assertEquals(PilotState.UNKNOWN, both.get(new PilotHandle("slurm", "999999")).state());
    } finally {
      Files.deleteIfExists(out);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"slurm22-c2", "slurm24-c1", "slurm24-c1@v0.0.40"})
  void aPilotAsksForItsJobsNodesTasksAndGpusAndSrunWorksInsideIt(String name) throws Exception {
    Instance slurm = instance(name);
    emptyQueue(slurm);
    Path out = Path.of(slurm.get("jobs.dir"), "pilot-" + System.nanoTime() + ".out");
    try (SlurmHandler handler = connect(name)) {
      // two tasks of one core and the cluster's GPU on one node: srun inside runs both tasks, and the run sees its GPU
      PilotHandle gpu = handler.submit(new PilotSpec("pilot-gpu", slurm.get("user"), 2, 100, 120, slurm.get("partition"),
          List.of("/bin/sh", "-c", "echo \"$SLURM_NTASKS $CUDA_VISIBLE_DEVICES\" > '" + out + "'; srun hostname | wc -l >> '"
              + out + "'"), Map.of(), slurm.get("jobs.dir"), false, new JobLayout(1, 2, Map.of("gpu", 1))));
      assertEquals(PilotState.COMPLETED, waitFor(handler, gpu, PilotState.COMPLETED).state());
      assertEquals(List.of("2 0", "2"), Files.readAllLines(out));
      // two nodes, one task each (the testbed's clusters have one node, so it waits, held; the container tier runs one)
      PilotHandle wide = handler.submit(new PilotSpec("pilot-wide", slurm.get("user"), 2, 100, 120, slurm.get("partition"),
          List.of("/bin/true"), Map.of(), slurm.get("jobs.dir"), true, new JobLayout(2, 2, Map.of())));
      String shown = run(slurm, "scontrol", "show", "job", wide.nativeId());
      assertTrue(shown.contains("NumNodes=2") && shown.contains("NumCPUs=2") && shown.contains("NumTasks=2"), shown);
      handler.cancel(wide);
    } finally {
      Files.deleteIfExists(out);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"slurm22-c1", "slurm24-c1", "slurm24-c1@v0.0.40"})
  void slurmNeverRunsAPilotsPayloadTwice(String name) throws Exception {
    Instance slurm = instance(name);
    Path runs = Path.of(slurm.get("jobs.dir"), "requeue-" + System.nanoTime() + ".out");
    try (SlurmHandler handler = connect(name)) {
      PilotHandle pilot = handler.submit(pilot(slurm, "pilot-requeue", List.of("/bin/sh", "-c", "echo run >> '" + runs + "'; sleep 60"), false));
      waitFor(handler, pilot, PilotState.RUNNING);
      Eventually.waitFor(() -> "the payload to start", Duration.ofSeconds(30), POLL, () -> Files.exists(runs));
      String shown = run(slurm, "scontrol", "show", "job", pilot.nativeId());
      if (shown.contains("Requeue=0")) {
        // v0.0.40 and v0.0.42 turn Slurm's requeue off: an admin's requeue is refused.
        Command.Result refused = Command.of(slurm.tool("scontrol"), "requeue", pilot.nativeId()).run();
        assertTrue(refused.exitCode() != 0 && refused.stderr().contains("disabled"), refused.describe());
        handler.cancel(pilot);
      } else {
        // v0.0.38 cannot turn it off (22.05 ignores requeue: false): the requeued run must end at once.
        assertEquals("v0.0.38", handler.version(), shown);
        run(slurm, "scontrol", "requeue", pilot.nativeId());
        // Slurm makes a requeued job wait (BeginTime: AuthInfo's cred_expire, 120 s) so that its next
        // launch never meets the first run's revoked credential: slurmd refuses a credential made in
        // the second of the revocation or before it, and slurmd revokes when it handles the first
        // run's end, late on a loaded machine. The test lets it start early, but only once the first
        // run is over on the node (the job no longer COMPLETING) and two seconds later; forced at
        // once, the launch was refused under load and the job ended FAILED, exit 1, not the pilot's 75.
        AtomicReference<PilotStatus> last = new AtomicReference<>();
        AtomicLong waitingSince = new AtomicLong();
        Eventually.waitFor(() -> "the requeued pilot to end; last seen " + last.get(), Duration.ofSeconds(60), POLL, () -> {
          PilotStatus s = last.updateAndGet(x -> handler.status(pilot));
          if (s.detail().contains("BeginTime") && !run(slurm, "scontrol", "show", "job", pilot.nativeId()).contains("COMPLETING")) {
            long now = System.nanoTime();
            waitingSince.compareAndSet(0, now);
            if (now - waitingSince.get() >= TimeUnit.SECONDS.toNanos(2)) {
              run(slurm, "scontrol", "update", "jobid=" + pilot.nativeId(), "starttime=now");
            }
          }
          return s.state().finished();
        });
        PilotStatus status = last.get();
        assertEquals(PilotState.FAILED, status.state(), status.toString());
        assertEquals(SlurmPilots.REQUEUED_EXIT, status.exitCode().orElseThrow(), status.toString());
      }
      assertEquals(List.of("run"), Files.readAllLines(runs));
    } finally {
      Files.deleteIfExists(runs);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"slurm22-c1", "slurm24-c1", "slurm24-c1@v0.0.40"})
  void aPilotIsHeldAgainAndCancelledAndCancellingTwiceIsNoError(String name) throws Exception {
    Instance slurm = instance(name);
    try (SlurmHandler handler = connect(name)) {
      // A job on every core first: released, the pilot cannot start before it is held again
      // (on an idle node Slurm may start it between the two calls).
      PilotHandle filler = handler.submit(new PilotSpec("pilot-filler", slurm.get("user"), Integer.parseInt(slurm.get("cpus")), 100, 600,
          slurm.get("partition"), List.of("/bin/sleep", "300"), Map.of(), slurm.get("jobs.dir"), false));
      waitFor(handler, filler, PilotState.RUNNING);
      PilotHandle pilot = handler.submit(pilot(slurm, "pilot-cancel", List.of("/bin/sleep", "300"), true));
      waitFor(handler, pilot, PilotState.HELD);
      handler.release(pilot);
      handler.hold(pilot);
      waitFor(handler, pilot, PilotState.HELD);
      handler.cancel(filler);
      handler.cancel(pilot);
      waitFor(handler, pilot, PilotState.CANCELLED);
      handler.cancel(pilot);
      handler.cancel(new PilotHandle("slurm", "999999"));
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"slurm22-c1", "slurm24-c1", "slurm24-c1@v0.0.40"})
  void errorsAreCategorisedWithTheServersWords(String name) throws Exception {
    Instance slurm = instance(name);
    try (SlurmHandler handler = connect(name)) {
      PilotSpec bad = new PilotSpec("pilot-bad", slurm.get("user"), 1, 0, 60, "nosuchpartition", List.of("/bin/true"), Map.of(),
          slurm.get("jobs.dir"), false);
      HandlerException rejected = assertThrows(HandlerException.class, () -> handler.submit(bad));
      assertEquals(Category.REJECTED, rejected.category(), rejected.getMessage());
      assertTrue(rejected.getMessage().contains("Invalid partition name specified"), rejected.getMessage());
    }
    // Nobody listens on the cluster's slurmctld port over HTTP... pick a closed port instead.
    SlurmConfig down = new SlurmConfig("http://127.0.0.1:9", config(slurm).credentials(), "root",
        Optional.empty(), Duration.ofSeconds(2), 86_400, Duration.ofMinutes(10), Clock.systemUTC(), Optional.empty(), List.of("scontrol"));
    HandlerException unreachable = assertThrows(HandlerException.class, () -> SlurmHandler.connect(down));
    assertEquals(Category.UNAVAILABLE, unreachable.category(), unreachable.getMessage());
    assertTrue(unreachable.category().retryable());
    Path garbage = Files.createTempFile("token", ".jwt");
    try {
      Files.writeString(garbage, "not-a-token");
      SlurmConfig badToken = pinned(name, SlurmConfig.of(slurm.get("rest.url"), SlurmCredentials.tokenFile("root", garbage), "root"));
      // 24.11 answers a ping without asking slurmctld about the token: the first real call meets it.
      HandlerException refused = assertThrows(HandlerException.class, () -> SlurmHandler.connect(badToken).observe());
      assertEquals(Category.AUTHENTICATION, refused.category(), refused.getMessage());
      System.out.printf("[slurm] %s errors: %s | %s%n", name, unreachable.getMessage(), refused.getMessage());
    } finally {
      Files.deleteIfExists(garbage);
    }
  }
}
