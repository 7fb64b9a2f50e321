package org.coalition.handler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import org.coalition.testbed.Eventually;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The handler SPI's shared contract: what every {@link ResourceHandler} must do against its real
 * batch system, whatever the system (Kubernetes, with no API server installable here, against
 * fabric8's mock API server and an independent stand-in for its controllers: k8s-handler's
 * README). One subclass per handler (Slurm on each REST version, Grid Engine, HTCondor,
 * Kubernetes, the local system, and a site of two systems) supplies a connected handler and the
 * site's facts; the tests are the same for all. Shipped in handler-api's test jar.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class ResourceHandlerContract {
  /** Longest a test waits for the batch system (Grid Engine schedules every 15 s on the testbed). */
  protected static final Duration WAIT = Duration.ofMinutes(2);
  private ResourceHandler handler;
  private Path dir;

  /** A handler connected to the real system. */
  protected abstract ResourceHandler connect();

  /** The unprivileged local account pilots run as. */
  protected abstract String account();

  /** The partition (queue) pilots go to; empty for the default. */
  protected abstract String partition();

  /** Cores of the system's usable nodes. */
  protected abstract int totalCores();

  /** A folder on the system's shared file system; the suite makes a world-writable one inside. */
  protected abstract Path jobsFolder();

  /**
   * Pilots that together take every core, each of which can run: one of all cores by default; a
   * site of several systems gives one per system.
   */
  protected List<Integer> fillingPilots() {
    return List.of(totalCores());
  }

  /** Removes every job from the system and waits until none is left. */
  protected abstract void emptyQueue();

  /** Whether observing asks the batch system anything (a remote system does; the local one reads its own memory). */
  protected boolean observingMakesRequests() {
    return true;
  }

  /**
   * Whether a pilot's batch output (its standard output and error) goes to the file its spec
   * names; a site whose pilots run inside the daemon has none (they log to the daemon's log),
   * nor has Kubernetes (a pod's output is its log, read with {@code kubectl logs}).
   */
  protected boolean keepsPilotOutput() {
    return true;
  }

  @BeforeAll
  void open() throws Exception {
    dir = Files.createTempDirectory(jobsFolder(), "contract");
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
    emptyQueue();
    handler = connect();
  }

  @AfterEach
  void cleanUp() {
    emptyQueue();
  }

  @AfterAll
  void close() {
    if (handler != null) {
      handler.close();
    }
  }

  /** A pilot of {@code cores} that runs {@code script} with {@code /bin/sh -c} in the suite's folder. */
  protected PilotSpec pilot(String name, int cores, String script, boolean held) {
    return new PilotSpec(name, account(), cores, 100, 120, partition(), List.of("/bin/sh", "-c", script),
        Map.of("COALITION_TEST", "yes"), dir.toString(), held);
  }

  /** The handler under test, connected for this test. */
  protected ResourceHandler handler() {
    return handler;
  }

  protected PilotStatus waitFor(PilotHandle pilot, String what, Predicate<PilotStatus> wanted) {
    AtomicReference<PilotStatus> status = new AtomicReference<>();
    Eventually.waitFor(() -> pilot + " " + what + "; last seen " + status.get(), WAIT, Duration.ofMillis(250),
        () -> wanted.test(status.updateAndGet(s -> handler.status(pilot))));
    return status.get();
  }

  protected QueueObservation observeUntil(String what, Predicate<QueueObservation> wanted) {
    AtomicReference<QueueObservation> seen = new AtomicReference<>();
    Eventually.waitFor(() -> what + "; last seen " + seen.get(), WAIT, Duration.ofMillis(250),
        () -> wanted.test(seen.updateAndGet(o -> handler.observe())));
    return seen.get();
  }

  @Test
  void describesTheBatchSystem() {
    assertFalse(handler.describe().isBlank());
    System.out.println("[contract] " + getClass().getSimpleName() + ": " + handler.describe());
  }

  @Test
  void anEmptySystemHasNothingPendingAndNothingAllocated() {
    QueueObservation o = handler.observe();
    assertEquals(0, o.pendingJobs(), o.toString());
    assertEquals(0.0, o.pendingCoreSeconds(), o.toString());
    assertEquals(0, o.allocatedCores(), o.toString());
    assertEquals(totalCores(), o.totalCores(), o.toString());
    if (observingMakesRequests()) {
      assertTrue(o.cost().requests() >= 1, "an observation says what it cost: " + o.cost());
    } else {
      assertEquals(RequestCost.NONE, o.cost(), "an observation that asks nothing costs nothing");
    }
  }

  @Test
  void aHeldPilotRunsOnceReleasedAsTheMappedAccountAndItsExitCodeComesBack() throws Exception {
    Path out = dir.resolve("held.out");
    PilotHandle pilot = handler.submit(pilot("coalition-contract", 1, "{ id -un; echo \"$COALITION_TEST\"; } > " + out + "; exit 3", true));
    PilotStatus held = waitFor(pilot, "is held", s -> s.state() == PilotState.HELD);
    assertTrue(held.exitCode().isEmpty(), held.toString());
    Thread.sleep(2000);
    assertEquals(PilotState.HELD, handler.status(pilot).state(), "a held pilot stays held");
    handler.release(pilot);
    PilotStatus ended = waitFor(pilot, "ends", s -> s.state().finished());
    assertEquals(PilotState.FAILED, ended.state(), ended.toString());
    assertEquals(OptionalInt.of(3), ended.exitCode(), ended.toString());
    assertEquals(account() + "\nyes\n", Files.readString(out), "the pilot ran as the mapped account, with its environment");
  }

  @Test
  void aPilotsBatchOutputGoesToItsOutputFileAndNothingIntoItsWorkingFolder() throws Exception {
    Path work = Files.createTempDirectory(dir, "work");
    Files.setPosixFilePermissions(work, PosixFilePermissions.fromString("rwxrwxrwx"));
    Path out = dir.resolve(work.getFileName() + ".out");
    String script = "echo to-stdout; echo to-stderr >&2";
    PilotSpec kept = new PilotSpec("coalition-contract", account(), 1, 100, 120, partition(), List.of("/bin/sh", "-c", script), Map.of(),
        work.toString(), false).withOutput(out.toString());
    PilotSpec discarded = new PilotSpec("coalition-contract", account(), 1, 100, 120, partition(), List.of("/bin/sh", "-c", script), Map.of(),
        work.toString(), false);
    for (PilotSpec spec : List.of(kept, discarded)) {
      PilotHandle pilot = handler.submit(spec);
      assertEquals(PilotState.COMPLETED, waitFor(pilot, "ends", s -> s.state().finished()).state());
    }
    if (keepsPilotOutput()) {
      Eventually.waitFor(() -> "both streams in " + out, WAIT, Duration.ofMillis(250), () -> {
        try {
          String text = Files.readString(out);
          return text.contains("to-stdout") && text.contains("to-stderr");
        } catch (IOException e) {
          return false; // not written yet
        }
      });
    }
    try (var left = Files.list(work)) {
      assertEquals(List.of(), left.toList(), "a pilot's batch output goes where the site file says, or nowhere: never its working folder");
    }
  }

  @Test
  void aPilotThatExitsZeroCompletes() {
    PilotHandle pilot = handler.submit(pilot("coalition-contract", 1, "exit 0", false));
    PilotStatus ended = waitFor(pilot, "ends", s -> s.state().finished());
    assertEquals(PilotState.COMPLETED, ended.state(), ended.toString());
    assertEquals(OptionalInt.of(0), ended.exitCode(), ended.toString());
  }

  @Test
  void aRunningPilotIsObservedThenCancelled() {
    PilotHandle pilot = handler.submit(pilot("coalition-contract", 2, "sleep 300", false));
    waitFor(pilot, "runs", s -> s.state() == PilotState.RUNNING);
    QueueObservation o = observeUntil("the running pilot's 2 cores allocated", x -> x.allocatedCores() == 2);
    assertEquals(2.0 / totalCores(), o.reservationRatio(), 1e-9);
    handler.cancel(pilot);
    PilotStatus ended = waitFor(pilot, "is cancelled", s -> s.state().finished());
    assertEquals(PilotState.CANCELLED, ended.state(), ended.toString());
    handler.cancel(pilot);
  }

  @Test
  void pendingWorkIsObservedWithItsCoreSeconds() {
    int filled = 0;
    for (int cores : fillingPilots()) {
      PilotHandle full = handler.submit(pilot("coalition-contract", cores, "sleep 300", false));
      waitFor(full, "runs", s -> s.state() == PilotState.RUNNING);
      int allocated = filled += cores;
      observeUntil(allocated + " cores allocated", x -> x.allocatedCores() == allocated);
    }
    assertEquals(totalCores(), filled, "the filling pilots take every core");
    PilotHandle waiting = handler.submit(pilot("coalition-contract", 2, "exit 0", false));
    PilotHandle held = handler.submit(pilot("coalition-contract", 1, "exit 0", true));
    QueueObservation o = observeUntil("two pilots pending behind a full system", x -> x.pendingJobs() == 2
        && x.allocatedCores() == totalCores());
    assertEquals((2 + 1) * 120.0, o.pendingCoreSeconds(), 1e-9, "core-seconds of the pending pilots' time limits");
    assertEquals(1.0, o.reservationRatio(), 1e-9);
    assertEquals(PilotState.PENDING, handler.status(waiting).state());
    assertEquals(PilotState.HELD, handler.status(held).state());
    System.out.printf("[contract] %s observation: %d pending, %.0f core-s, ratio %.2f, %d requests, %d bytes%n", getClass().getSimpleName(),
        o.pendingJobs(), o.pendingCoreSeconds(), o.reservationRatio(), o.cost().requests(), o.cost().bytes());
  }

  @Test
  void severalPilotsAreFollowedAtOnceAndAnUnknownOneIsUnknown() {
    PilotHandle a = handler.submit(pilot("coalition-contract", 1, "exit 0", true));
    PilotHandle b = handler.submit(pilot("coalition-contract", 1, "exit 0", true));
    PilotHandle unknown = new PilotHandle(a.system(), "999999");
    // submitted held: each is HELD once the batch system has taken it in, and the batched read says so for both
    waitFor(a, "is held", st -> st.state() == PilotState.HELD);
    waitFor(b, "is held", st -> st.state() == PilotState.HELD);
    Map<PilotHandle, PilotStatus> all = handler.statuses(List.of(a, b, unknown));
    assertEquals(3, all.size(), all.toString());
    assertEquals(PilotState.UNKNOWN, all.get(unknown).state(), all.toString());
    for (PilotHandle p : List.of(a, b)) {
      assertEquals(PilotState.HELD, all.get(p).state(), p + ": " + all.get(p));
    }
    assertEquals(PilotState.UNKNOWN, handler.status(unknown).state());
    handler.cancel(unknown);
  }
}
